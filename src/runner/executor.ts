import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import {
  MAX_PLAN_JSON_BYTES,
  MAX_SAVED_PLAN_BYTES,
  planJsonTooLarge,
  savedPlanTooLarge,
} from '../domain/common/limits.js';
import { cliWorkspaceName } from '../domain/runs/run-workspace-name.js';
import { versionSatisfies, type ResourceCounts } from '../domain/runs/run-execution.js';
import { sensitiveValues } from '../domain/variables/hcl-leaves.js';
import { tfvarsFile } from '../domain/variables/variable.js';
import { extractConfiguration } from './configuration-archive.js';
import { LogWriter } from './log-writer.js';
import { portFailureOf, reasonOf, retryTransient } from './port-errors.js';
import { fileInZip } from './plan-archive.js';
import { dyingWithParent, signalGroup, spawnInGroup, whenEnded } from './process-group.js';
import type { ClaimedRun, EffectiveVariables, PhaseResult, RunnerPort } from './port.js';
import {
  cleanEnv,
  cliConfigText,
  countsInPlanOutput,
  newRunFolder,
  removeRunFolder,
  workingDir,
} from './run-folder.js';
import { digest, removeRunRecord, sweepRunFolders, writeRunRecord } from './left-behind.js';
import { resolved, sandboxed, type SandboxConfig } from './sandbox.js';
import { openBridge, type Bridge } from './berth-bridge.js';
import { onRunsMayHaveQueued, onRunsMayHaveStopped, runLogMayHaveGrown } from './wake.js';

/**
 * The executor of `berth serve` (when it has a terraform binary) and of `berth agent`: claims queued plans and applies
 * through its port, at most `concurrency` at once, and runs `terraform init`, `plan` and `apply`
 * as child processes in a fresh temporary folder holding the configuration, with a clean
 * environment, a time limit, and cancellation (SIGINT, then SIGKILL after a grace period). Output
 * streams into the phase's log as it is written. The workspace's state goes through a local
 * backend forced by an override file; the state an apply wrote is recorded through the port.
 * The plan phase's saved plan (`plan -out`) goes to berth through the port (`storePlan`); the apply
 * phase, on whichever executor claims it, restores the configuration and that plan and applies it:
 * never a new plan.
 */

export interface ExecutorOptions {
  terraformPath: string;
  /** Runs executing at once (default 2). */
  concurrency?: number;
  /** Milliseconds a phase may take before it is interrupted (default one hour). */
  timeLimitMs?: number;
  /** Milliseconds between SIGINT and SIGKILL when stopping terraform (default 10 s). */
  graceMs?: number;
  /** Milliseconds between looks for queued runs and for cancellations (default 1 s). */
  pollMs?: number;
  /** Where problems of the executor itself are told (serve's log). */
  log?: (line: string) => void;
  /**
   * Milliseconds without a heartbeat after which a planning or applying run counts as interrupted
   * (its executor, this one or another instance's, is gone) and is ended errored (default 60 s).
   * This executor beats every quarter of it and looks for such runs as often, from its start.
   */
  heartbeatTimeoutMs?: number;
  /** A name for this executor in the runs it claims. */
  name?: string;
  /**
   * berth's API as terraform inside a run reaches it (`<base URL>/api/v2/`): serve's own listening
   * address. With it, each phase gets a CLI configuration file (`TF_CLI_CONFIG_FILE`) mapping every
   * name of `hosts` to it, with the phase's run token as their credentials.
   */
  apiUrl?: string;
  /** The hostnames berth is known by (`--hostname`, `localhost:PORT`, `127.0.0.1:PORT`). */
  hosts?: string[];
  /** A CA certificate file for terraform to trust (serve's --tls-cert): `SSL_CERT_FILE`. */
  caFile?: string;
  /** The largest saved plan kept for the apply (default and at most MAX_SAVED_PLAN_BYTES). */
  maxSavedPlanBytes?: number;
  /** The largest JSON plan with its provider schemas this executor hands berth (at most, and by default, MAX_PLAN_JSON_BYTES). */
  maxPlanJsonBytes?: number;
  /** What a configuration may unpack to (default MAX_CONFIGURATION_UNPACKED_BYTES and MAX_CONFIGURATION_ENTRIES). */
  maxConfiguration?: { bytes: number; entries: number };
  /** Where the phases' folders are made (default the system's temporary folder). */
  runFolderBase?: string;
  /**
   * The sandbox every terraform process of a phase runs in (sandbox.ts); null or absent: none, terraform
   * runs as this process's user and sees what it sees (`--sandbox off`).
   */
  sandbox?: SandboxConfig | null;
}

/** The override file that keeps the run's state local: it replaces the `cloud` block or backend. */
export const OVERRIDE_FILE = 'zz_berth_override.tf';
const OVERRIDE = 'terraform {\n  backend "local" {\n    path = "terraform.tfstate"\n  }\n}\n';
const VARIABLES_FILE = 'zz_berth_run.auto.tfvars';
/**
 * The workspace's Terraform variables. Terraform reads `*.auto.tfvars` files in lexical order, a
 * later file winning: this name sorts after the configuration's own files (workspace variables
 * win over them, as in HCP) and before VARIABLES_FILE (a run's `-var` wins over the workspace).
 */
export const WORKSPACE_VARIABLES_FILE = 'zz_berth_0_workspace.auto.tfvars';
/** The run's CLI configuration file, beside (not in) the configuration: its run token's credentials. */
const CLI_CONFIG_FILE = 'berth.tfrc';
const PLAN_FILE = 'berth.tfplan';
/** terraform's dependency lock file, which a saved plan carries too. */
const LOCK_FILE = '.terraform.lock.hcl';
/** Why an apply phase did not run: its run has no saved plan (run's error message and log). */
export const MISSING_PLAN =
  'This run has no saved plan to apply (it was planned before berth kept saved plans, or the plan was lost). ' +
  'berth does not plan again at apply time, which could apply something other than the confirmed plan: ' +
  'queue a new run.';

interface Child {
  code: number | null;
  timedOut: boolean;
  stopped: 'cancel' | 'force' | null;
}

export class Executor {
  private readonly concurrency: number;
  private readonly active = new Set<Promise<void>>();
  /** Per run: terraform's own name for the workspace (TF_WORKSPACE: `terraform.workspace`). */
  private readonly cliWorkspace = new Map<string, string>();
  /** The bridge to berth of each phase executing with --run-network none (berth-bridge.ts). */
  private readonly bridges = new Map<string, Bridge>();
  private timer: NodeJS.Timeout | null = null;
  private beatTimer: NodeJS.Timeout | null = null;
  private beating: Promise<void> = Promise.resolve();
  private stopping = false;
  private claiming = false;
  /** A wake-up came while claiming: look once more when done. */
  private again = false;
  private unsubscribe: (() => void) | null = null;
  private readonly name: string;
  private readonly folderBase: string;
  /** The variables of the runs executing here, read when each phase starts. */
  private readonly variables = new Map<string, EffectiveVariables>();
  /** The binary's version (`terraform version -json`), asked once. */
  private binaryVersion: Promise<string | null> | null = null;

  constructor(
    private readonly port: RunnerPort,
    private readonly options: ExecutorOptions,
  ) {
    this.concurrency = options.concurrency ?? 2;
    this.folderBase = options.runFolderBase ?? tmpdir();
    // Unique per process start: a restarted serve (even with the same pid) is another executor.
    this.name = options.name ?? `serve-${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
  }

  start(): void {
    // What a killed executor left on this machine first (left-behind.ts): its processes killed, an
    // interrupted apply's state kept, its folders removed; only then are runs claimed here.
    void sweepRunFolders(this.folderBase, {
      keepState: (runId, state) => this.port.keepInterruptedState(runId, state),
      log: (line) => this.log(line),
    })
      .then(
        (n) => {
          if (n > 0) this.log(`removed ${n} run folder(s) left by a process that is gone`);
        },
        (err: unknown) => this.log(`looking for run folders left behind failed: ${String(err)}`),
      )
      .finally(() => {
        if (this.stopping) return;
        this.timer = setInterval(() => this.tick(), this.options.pollMs ?? 1000);
        this.timer.unref();
        const timeout = this.options.heartbeatTimeoutMs ?? 60_000;
        this.beatTimer = setInterval(() => this.beat(timeout), Math.max(250, Math.floor(timeout / 4)));
        this.beatTimer.unref();
        this.beat(timeout);
        this.unsubscribe = onRunsMayHaveQueued(() => this.tick());
        this.tick();
      });
  }

  /** Stops claiming, interrupts what runs, and waits for it to end. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    this.unsubscribe?.();
    await Promise.allSettled([...this.active]);
    if (this.beatTimer) clearInterval(this.beatTimer);
    await this.beating;
  }

  private log(line: string) {
    this.options.log?.(`executor: ${line}`);
  }

  /**
   * Says this executor still runs its runs, then ends those whose executor went quiet (crashed,
   * killed, or this process before a restart): errored, their workspaces unlocked.
   */
  private beat(timeoutMs: number): void {
    this.beating = this.beating.then(async () => {
      try {
        // While stopping, the runs still going keep beating; only the look for others' ends.
        if (this.active.size > 0) await this.port.heartbeat(this.name);
        if (this.stopping) return;
        const ended = await this.port.recoverInterrupted(timeoutMs);
        for (const id of ended) this.log(`run ${id} was interrupted (its executor stopped): ended errored`);
        if (ended.length > 0) this.tick();
      } catch (err) {
        this.log(`heartbeat failed: ${String(err)}`);
      }
    });
  }

  /** Claims queued phases while there is room. */
  tick(): void {
    if (this.stopping) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    this.again = false;
    void (async () => {
      try {
        while (!this.stopping && this.active.size < this.concurrency) {
          const claim = await this.port.claim(this.name);
          if (!claim) break;
          const job = this.execute(claim).catch((err) => this.log(`run ${claim.runId}: ${String(err)}`));
          this.active.add(job);
          void job.finally(() => {
            this.active.delete(job);
            this.tick();
          });
        }
      } catch (err) {
        this.log(`claiming runs failed: ${String(err)}`);
      } finally {
        this.claiming = false;
        if (this.again) this.tick();
      }
    })();
  }

  private async execute(claim: ClaimedRun): Promise<void> {
    const log = new LogWriter(this.port, claim.runId, claim.phase, {
      log: (line) => this.log(`run ${claim.runId}: ${line}`),
    });
    let dir: string | null = null;
    let bridge: Bridge | null = null;
    let result: PhaseResult;
    // Three lines first, as HCP's logs start: the CLI skips the first three lines of an apply's log.
    log.write(`Terraform run ${claim.runId} (${claim.phase})\non berth\nInitializing plugins and modules...\n`);
    try {
      const vars = await this.port.variables(claim.runId);
      this.variables.set(claim.runId, vars);
      log.conceal(sensitiveValues([...vars.terraform, ...vars.env]));
      const refusal = await this.refusal(claim);
      if (refusal) {
        log.write(`\n${refusal}\n`);
        result = { outcome: 'errored', errorMessage: refusal };
      } else {
        // The apply applies the plan its plan phase saved, and nothing else (never a new plan).
        const plan = claim.phase === 'apply' ? await this.port.savedPlan(claim.runId) : null;
        if (claim.phase === 'apply' && !plan) {
          log.write(`\n${MISSING_PLAN}\n`);
          result = { outcome: 'errored', errorMessage: MISSING_PLAN };
        } else {
          dir = await newRunFolder(this.folderBase);
          writeRunRecord(dir, { runId: claim.runId, phase: claim.phase });
          await this.writeCliConfig(claim, dir);
          // With --run-network none, berth is the one address a run reaches (berth-bridge.ts).
          if (this.options.sandbox?.network === 'none' && this.options.apiUrl) {
            bridge = await openBridge(dir, this.options.apiUrl);
            this.bridges.set(claim.runId, bridge);
          }
          // The apply's init installs the providers the plan was made with: its lock file.
          result = await this.prepare(claim, dir, log, plan ? fileInZip(plan, LOCK_FILE) : null);
          if (result.outcome === 'finished' && plan) {
            await writeFile(join(workingDir(claim, dir), PLAN_FILE), plan);
            log.write(`\nApplying the plan saved by this run's plan phase (${plan.length} bytes).\n`);
            result = await this.apply(claim, dir, log);
          } else if (result.outcome === 'finished') {
            result = await this.plan(claim, dir, log);
            if (result.outcome === 'finished' && !claim.planOnly && (result.hasChanges || claim.allowEmptyApply))
              result = await this.keepPlan(claim, dir, log, result);
            if (result.outcome === 'finished' && !claim.planOnly) await this.keepPlanJson(claim, dir, log);
          }
        }
      }
    } catch (err) {
      log.write(`\nberth could not execute this run: ${(err as Error)?.message ?? String(err)}\n`);
      result = { outcome: 'errored', errorMessage: 'berth could not execute this run' };
    }
    this.variables.delete(claim.runId);
    this.cliWorkspace.delete(claim.runId);
    this.bridges.delete(claim.runId);
    await bridge?.close();
    await log.flush();
    // A log berth will not take ends the phase: canceled when its run is gone, errored otherwise.
    if (log.failure?.kind === 'vanished') result = { outcome: 'canceled' };
    else if (log.failure)
      result = { outcome: 'errored', errorMessage: `berth could not write this run's log: ${log.failure.reason}` };
    const left = dir ? await removeRunFolder(dir) : null;
    if (left) this.options.log?.(`executor: the folder of run ${claim.runId} could not be removed: ${left}`);
    else if (dir) await removeRunRecord(dir);
    const ended = result;
    // Tried again while berth cannot take it for now: a phase left unended would hold its workspace.
    const gone = await retryTransient(() => this.port.finishPhase(claim.runId, claim.phase, ended)).then(
      () => (log.failure?.kind === 'vanished' ? log.failure.reason : null),
      (err: unknown) => {
        if (portFailureOf(err) === 'vanished') return reasonOf(err);
        this.log(`run ${claim.runId}: berth could not end its ${claim.phase}: ${reasonOf(err)}`);
        return null;
      },
    );
    if (gone)
      this.log(
        `run ${claim.runId} is gone (deleted with its workspace or organization, or ended without this executor): ` +
          `its ${claim.phase} ended here as canceled (${gone})`,
      );
    runLogMayHaveGrown(claim.runId);
  }

  /**
   * Hands the saved plan to berth for the run's apply (before the phase finishes, so that the apply
   * is never claimed without it). A plan over the limit, or one berth did not take, ends the plan
   * errored, saying why: the run could not be applied as planned.
   */
  private async keepPlan(claim: ClaimedRun, dir: string, log: LogWriter, planned: PhaseResult): Promise<PhaseResult> {
    const file = join(workingDir(claim, dir), PLAN_FILE);
    const max = Math.min(this.options.maxSavedPlanBytes ?? MAX_SAVED_PLAN_BYTES, MAX_SAVED_PLAN_BYTES);
    const { size } = await stat(file);
    if (size > max) {
      const message = savedPlanTooLarge(size, max);
      log.write(`\n${message}\n`);
      return { ...planned, outcome: 'errored', errorMessage: message };
    }
    try {
      await this.port.storePlan(claim.runId, await readFile(file));
    } catch (err) {
      const message = 'berth could not keep the saved plan for the apply, so this run cannot be applied';
      log.write(`\n${message}: ${(err as Error)?.message ?? String(err)}\n`);
      return { ...planned, outcome: 'errored', errorMessage: message };
    }
    return planned;
  }

  /**
   * Hands berth the plan as JSON (`terraform show -json` of the saved plan) and the provider schemas
   * (`terraform providers schema -json`, in the same initialized folder), for json-output and
   * `terraform show` of a saved cloud plan. Not having them changes nothing of the run: the log says
   * why (over MAX_PLAN_JSON_BYTES, terraform failed, berth did not take them), and the run goes on.
   */
  private async keepPlanJson(claim: ClaimedRun, dir: string, log: LogWriter): Promise<void> {
    const max = Math.min(this.options.maxPlanJsonBytes ?? MAX_PLAN_JSON_BYTES, MAX_PLAN_JSON_BYTES);
    const plan = await this.capture(claim, dir, ['show', '-json', '-no-color', PLAN_FILE], max);
    const schemas = plan.out
      ? await this.capture(claim, dir, ['providers', 'schema', '-json'], max - plan.out.length)
      : null;
    if (!plan.out || !schemas?.out) {
      const tooLarge = plan.tooLarge || Boolean(schemas?.tooLarge);
      const size = plan.size + (schemas?.size ?? 0);
      const why = tooLarge
        ? planJsonTooLarge(size, max)
        : 'terraform could not print the plan or the provider schemas as JSON';
      log.write(`\nThe plan is not kept as JSON: ${why}\n`);
      return;
    }
    try {
      await this.port.storePlanJson(claim.runId, plan.out, schemas.out);
    } catch (err) {
      log.write(`\nberth could not keep the plan as JSON: ${(err as Error)?.message ?? String(err)}\n`);
    }
  }

  /**
   * The standard output of a terraform command in the run's folder (null: it failed, or printed
   * more than `max` bytes: `tooLarge`, stopped there), within the phase's time limit.
   */
  private capture(
    claim: ClaimedRun,
    dir: string,
    args: string[],
    max: number,
  ): Promise<{ out: Buffer | null; tooLarge: boolean; size: number }> {
    return new Promise((resolve) => {
      const out: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      const child = this.spawnTerraform(claim, dir, args, ['ignore', 'pipe', 'ignore']);
      const limit = setTimeout(() => signalGroup(child, 'SIGKILL'), this.options.timeLimitMs ?? 3_600_000);
      child.stdout!.on('data', (d: Buffer) => {
        size += d.length;
        if (size > max) {
          tooLarge = true;
          signalGroup(child, 'SIGKILL');
        } else out.push(d);
      });
      child.on('error', () => {
        clearTimeout(limit);
        resolve({ out: null, tooLarge, size });
      });
      whenEnded(child, (code) => {
        clearTimeout(limit);
        resolve({ out: code === 0 && !tooLarge ? Buffer.concat(out) : null, tooLarge, size });
      });
    });
  }

  /**
   * Starts terraform in the run's folder, in a process group of its own, in the sandbox when there is
   * one: it sees its folder, its binary and serve's CA certificate, nothing else of this machine.
   */
  private spawnTerraform(claim: ClaimedRun, dir: string, args: string[], stdio: StdioOptions): ChildProcess {
    const cwd = workingDir(claim, dir);
    const sandbox = this.options.sandbox;
    const binary = sandbox ? resolved(this.options.terraformPath) : this.options.terraformPath;
    const bridge = this.bridges.get(claim.runId);
    const [command, ...commandArgs] = bridge ? [...bridge.prefix, binary, ...args] : [binary, ...args];
    const readOnly = [binary, ...(this.options.caFile ? [this.options.caFile] : []), ...(bridge?.readOnly ?? [])];
    const run = sandbox
      ? sandboxed(sandbox, { dir, cwd, readOnly, hostsFile: bridge?.hostsFile }, command, commandArgs)
      : dyingWithParent(binary, args);
    return spawnInGroup(run.command, run.args, { cwd, env: this.runEnv(claim, dir), stdio });
  }

  /** terraform's environment in a run: the workspace's environment variables, then berth's own (which win). */
  private runEnv(claim: ClaimedRun, dir: string): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const v of this.variables.get(claim.runId)?.env ?? []) env[v.key] = v.value;
    return { ...env, ...this.env(dir), TF_WORKSPACE: this.workspaceOf(claim) };
  }

  /**
   * Writes the phase's CLI configuration file (mode 0600): for each name berth is known by, the
   * run token as credentials and berth's API as the `tfe.v2` services (so that the `remote`
   * backend of `terraform_remote_state`, or a `cloud` block, reaches this berth without discovery).
   */
  private async writeCliConfig(claim: ClaimedRun, dir: string): Promise<void> {
    if (!this.options.apiUrl) return;
    await writeFile(
      join(dir, CLI_CONFIG_FILE),
      cliConfigText(this.options.apiUrl, this.options.hosts ?? [], claim.token, {
        organization: claim.organizationName,
        mirrorHostnames: claim.mirrorHostnames,
      }),
      {
        mode: 0o600,
      },
    );
  }

  /** The environment of terraform in the run (`cleanEnv`), with the run's CLI configuration. */
  private env(dir: string): NodeJS.ProcessEnv {
    if (!this.options.apiUrl) return cleanEnv(dir);
    return cleanEnv(dir, {
      TF_CLI_CONFIG_FILE: join(dir, CLI_CONFIG_FILE),
      ...(this.options.caFile ? { SSL_CERT_FILE: this.options.caFile } : {}),
    });
  }

  /** terraform's name for the run's workspace (cliWorkspaceName), from the configuration's own files. */
  private async nameWorkspace(claim: ClaimedRun, dir: string): Promise<void> {
    const cwd = workingDir(claim, dir);
    const files = (await readdir(cwd).catch(() => [])).filter((f) => f.endsWith('.tf') && f !== OVERRIDE_FILE);
    const sources = await Promise.all(files.map((f) => readFile(join(cwd, f), 'utf8').catch(() => '')));
    this.cliWorkspace.set(claim.runId, cliWorkspaceName(claim.workspaceName, sources));
  }

  private workspaceOf(claim: ClaimedRun): string {
    return this.cliWorkspace.get(claim.runId) ?? claim.workspaceName;
  }

  /**
   * Where the run's state is: the local backend keeps the state of the workspace terraform runs in
   * (TF_WORKSPACE) in `terraform.tfstate.d/NAME/` (`terraform.tfstate` for `default`).
   */
  private statePath(claim: ClaimedRun, dir: string): string {
    const cwd = workingDir(claim, dir);
    const name = this.workspaceOf(claim);
    return name === 'default'
      ? join(cwd, 'terraform.tfstate')
      : join(cwd, 'terraform.tfstate.d', name, 'terraform.tfstate');
  }

  /** The version of the one terraform binary this executor runs (null: it does not say). */
  terraformVersion(): Promise<string | null> {
    this.binaryVersion ??= new Promise((resolve) => {
      const out: Buffer[] = [];
      const child = spawn(this.options.terraformPath, ['version', '-json'], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', CHECKPOINT_DISABLE: '1' },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      child.stdout.on('data', (d: Buffer) => out.push(d));
      child.on('error', () => resolve(null));
      child.on('close', () => {
        try {
          const v = (JSON.parse(Buffer.concat(out).toString()) as { terraform_version?: unknown }).terraform_version;
          resolve(typeof v === 'string' ? v : null);
        } catch {
          resolve(null);
        }
      });
    });
    return this.binaryVersion;
  }

  /**
   * Why the run cannot execute here, before anything runs: the workspace asks for a Terraform
   * version the binary does not satisfy (unless it says `latest`), or a working directory outside
   * the configuration.
   */
  private async refusal(claim: ClaimedRun): Promise<string | null> {
    const wd = claim.workingDirectory;
    if (wd && (isAbsolute(wd) || normalize(wd).split(/[\\/]/)[0] === '..'))
      return `The working directory ${JSON.stringify(wd)} is outside the configuration`;
    const wanted = claim.terraformVersion;
    if (wanted.trim().toLowerCase() === 'latest') return null;
    const have = await this.terraformVersion();
    if (have !== null && versionSatisfies(have, wanted)) return null;
    if (claim.terraformVersionOf === 'run')
      return (
        `The run asks for Terraform ${wanted}, but this executor runs Terraform ${have ?? '(unknown version)'} ` +
        `(${this.options.terraformPath}); start a plan-only run without terraform-version, or with ${have ?? 'its version'}`
      );
    // In the CLI's words (its flag is --engine-version), with the API's attribute for other clients.
    const workspace = claim.organizationName ? `${claim.organizationName}/${claim.workspaceName}` : claim.workspaceName;
    const version = have ?? 'latest';
    return (
      `The workspace asks for Terraform ${wanted}, but this berth runs Terraform ${have ?? '(unknown version)'} ` +
      `(${this.options.terraformPath}); set the workspace's engine version to ${version} or latest: ` +
      `berth workspace update ${workspace} --engine-version ${version} (terraform-version in the API)`
    );
  }

  /**
   * Extracts the configuration, writes the override, the state and the run variables, runs init;
   * with `lockFile` (the saved plan's), init installs the provider versions it names.
   */
  private async prepare(
    claim: ClaimedRun,
    dir: string,
    log: LogWriter,
    lockFile: Buffer | null = null,
  ): Promise<PhaseResult> {
    const archive = await this.port.configuration(claim.configurationVersionId);
    if (!archive) return { outcome: 'errored', errorMessage: 'the configuration version has no configuration' };
    const work = join(dir, 'work');
    await mkdir(work);
    await mkdir(join(dir, 'home'));
    let over: string | null;
    try {
      over = await extractConfiguration(archive, work, this.options.maxConfiguration);
    } catch (err) {
      log.write(`The configuration archive cannot be extracted: ${(err as Error).message}\n`);
      return { outcome: 'errored', errorMessage: 'the configuration archive cannot be extracted' };
    }
    if (over) {
      log.write(`${over}\n`);
      return { outcome: 'errored', errorMessage: over };
    }
    // What the uploading CLI had initialised locally (its backend, its workspace) is not ours.
    // The workspace's working directory: terraform runs in that folder of the configuration.
    const cwd = workingDir(claim, dir);
    if (
      !(await stat(cwd).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      const message = `The working directory ${JSON.stringify(claim.workingDirectory)} is not in the configuration`;
      log.write(`${message}\n`);
      return { outcome: 'errored', errorMessage: message };
    }
    await rm(join(cwd, '.terraform', 'terraform.tfstate'), { force: true });
    await rm(join(cwd, '.terraform', 'environment'), { force: true });
    await this.nameWorkspace(claim, dir);
    await writeFile(join(cwd, OVERRIDE_FILE), OVERRIDE);
    // Local state the upload carried is not the workspace's (and would make init offer a migration).
    await rm(join(cwd, 'terraform.tfstate'), { force: true });
    await rm(join(cwd, 'terraform.tfstate.d'), { recursive: true, force: true });
    const workspaceVariables = this.variables.get(claim.runId)?.terraform ?? [];
    if (workspaceVariables.length > 0)
      await writeFile(join(cwd, WORKSPACE_VARIABLES_FILE), tfvarsFile(workspaceVariables));
    // The run's -var values, less those a priority variable set overrides (effective.ts).
    const runVariables = this.variables.get(claim.runId)?.runVariables ?? claim.variables;
    if (runVariables.length > 0)
      await writeFile(join(cwd, VARIABLES_FILE), runVariables.map((v) => `${v.key} = ${v.value}\n`).join(''));
    if (lockFile) await writeFile(join(cwd, LOCK_FILE), lockFile);
    const init = await this.terraform(claim, dir, ['init', '-input=false', '-no-color', '-reconfigure'], log, true);
    if (init.stopped) return { outcome: 'canceled' };
    if (init.code !== 0) {
      log.write(log.held);
      return { outcome: 'errored', errorMessage: init.timedOut ? 'terraform init timed out' : 'terraform init failed' };
    }
    // The workspace's state, once init chose the workspace of its name (TF_WORKSPACE): before, init
    // would see it as existing local state and offer to migrate it.
    const state = await this.port.currentState(claim.runId);
    await mkdir(dirname(this.statePath(claim, dir)), { recursive: true });
    if (state) await writeFile(this.statePath(claim, dir), state);
    // Should this executor be killed mid-apply, the next one here keeps what terraform wrote (left-behind.ts).
    writeRunRecord(dir, {
      runId: claim.runId,
      phase: claim.phase,
      statePath: this.statePath(claim, dir),
      startedFrom: digest(state),
    });
    return { outcome: 'finished' };
  }

  private async plan(claim: ClaimedRun, dir: string, log: LogWriter): Promise<PhaseResult> {
    const args = ['plan', '-input=false', '-no-color', `-out=${PLAN_FILE}`, '-detailed-exitcode'];
    if (claim.isDestroy) args.push('-destroy');
    if (claim.refreshOnly) args.push('-refresh-only');
    if (!claim.refresh) args.push('-refresh=false');
    for (const t of claim.targetAddrs) args.push(`-target=${t}`);
    for (const r of claim.replaceAddrs) args.push(`-replace=${r}`);
    const run = await this.terraform(claim, dir, args, log);
    if (run.stopped) return { outcome: 'canceled' };
    if (run.code !== 0 && run.code !== 2)
      return { outcome: 'errored', errorMessage: run.timedOut ? 'the plan timed out' : 'the plan failed' };
    const hasChanges = run.code === 2;
    // The plan's own summary when it has one (no second terraform process on the way to the end
    // of the phase); `terraform show -json` of the saved plan otherwise.
    const counts = hasChanges
      ? (countsInPlanOutput(log.tail) ?? (await this.planCounts(claim, dir)))
      : { additions: 0, changes: 0, destructions: 0 };
    return { outcome: 'finished', hasChanges, counts };
  }

  private async apply(claim: ClaimedRun, dir: string, log: LogWriter): Promise<PhaseResult> {
    const before = await readFile(this.statePath(claim, dir)).catch(() => null);
    const counts = await this.planCounts(claim, dir);
    const run = await this.terraform(claim, dir, ['apply', '-input=false', '-no-color', PLAN_FILE], log);
    // Whatever happened, a state that changed is recorded: a failed apply may have changed things.
    const after = await readFile(this.statePath(claim, dir)).catch(() => null);
    if (after && (!before || !after.equals(before))) {
      await this.port.storeState(claim.runId, after);
      // Recorded: nothing is left for the next executor to keep, should this one be killed now.
      writeRunRecord(dir, {
        runId: claim.runId,
        phase: claim.phase,
        statePath: this.statePath(claim, dir),
        startedFrom: digest(after),
      });
    }
    if (run.stopped) return { outcome: 'canceled' };
    if (run.code !== 0)
      return { outcome: 'errored', errorMessage: run.timedOut ? 'the apply timed out' : 'the apply failed' };
    return { outcome: 'finished', counts };
  }

  /** Additions, changes and destructions of the saved plan (`terraform show -json`). */
  private async planCounts(claim: ClaimedRun, dir: string): Promise<ResourceCounts | undefined> {
    const { out } = await this.capture(claim, dir, ['show', '-json', '-no-color', PLAN_FILE], MAX_PLAN_JSON_BYTES);
    if (!out) return undefined;
    try {
      const plan = JSON.parse(out.toString()) as {
        resource_changes?: { change?: { actions?: string[] } }[];
      };
      const counts = { additions: 0, changes: 0, destructions: 0 };
      for (const rc of plan.resource_changes ?? []) {
        const actions = rc.change?.actions ?? [];
        if (actions.includes('create')) counts.additions++;
        if (actions.includes('delete')) counts.destructions++;
        if (actions.includes('update')) counts.changes++;
      }
      return counts;
    } catch {
      return undefined;
    }
  }

  /**
   * Runs terraform in the run's folder, its output into the log (or held, with `hold`), within the
   * time limit, stopping it when the run is canceled.
   */
  private terraform(claim: ClaimedRun, dir: string, args: string[], log: LogWriter, hold = false): Promise<Child> {
    return new Promise((resolve, reject) => {
      const child = this.spawnTerraform(claim, dir, args, ['ignore', 'pipe', 'pipe']);
      const result: Child = { code: null, timedOut: false, stopped: null };
      const take = (d: Buffer) => (hold ? log.hold(d) : log.write(d));
      child.stdout!.on('data', take);
      child.stderr!.on('data', take);
      let killTimer: NodeJS.Timeout | null = null;
      // terraform is interrupted as Ctrl-C would (it stops its providers and commands itself), and
      // killed with everything it started once the grace is over.
      const interrupt = () => {
        if (killTimer) return;
        // In the sandbox, bwrap ignores SIGINT and passes nothing on: its group hears it, terraform with it.
        if (this.options.sandbox) signalGroup(child, 'SIGINT');
        else child.kill('SIGINT');
        killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), this.options.graceMs ?? 10_000);
      };
      const limit = setTimeout(() => {
        result.timedOut = true;
        log.write(`\nThe time limit of this phase was reached: stopping terraform.\n`);
        interrupt();
      }, this.options.timeLimitMs ?? 3_600_000);
      const stopAs = (stop: 'cancel' | 'force') => {
        if (result.stopped === 'force') return;
        result.stopped = stop;
        if (stop === 'force') signalGroup(child, 'SIGKILL');
        else interrupt();
      };
      const look = () => {
        void this.port
          .stopRequested(claim.runId)
          .then((stop) => stop && stopAs(stop))
          .catch(() => undefined);
      };
      const watch = setInterval(look, this.options.pollMs ?? 1000);
      // At once after a cancel or a deletion in this process (wake.ts), and when the log fails:
      // berth will not take it (killed when its run is gone, else interrupted), the phase ends now.
      const unwake = onRunsMayHaveStopped(look);
      const unfollow = log.onFailure((f) => stopAs(f.kind === 'vanished' ? 'force' : 'cancel'));
      const unwatch = () => {
        clearInterval(watch);
        unwake();
        unfollow();
      };
      child.on('error', (err) => {
        clearTimeout(limit);
        unwatch();
        reject(err);
      });
      whenEnded(child, (code) => {
        clearTimeout(limit);
        unwatch();
        if (killTimer) clearTimeout(killTimer);
        result.code = code;
        resolve(result);
      });
    });
  }
}
