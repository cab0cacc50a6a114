import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { tempDb } from './cli.js';
import { remoteCli, startServe, type ServeProcess } from './serve.js';

/**
 * The real Terraform CLI for the end-to-end suite (test/e2e/terraform/): where the binary is,
 * its version, hermetic environments with a CLI configuration file of their own, and runs of it
 * whose output can be waited on line by line (never on the clock).
 */

/** The oldest Terraform the suite supports: key-value tags in the `cloud` block came in 1.10. */
export const MIN_TERRAFORM = [1, 10] as const;

export interface TerraformBinary {
  path: string;
  version: string;
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not there, or not executable: the next folder of PATH
    }
  }
  return null;
}

/** Finds `terraform` on the PATH and asks it its version; `reason` says why it cannot be used. */
export function findTerraform(): { binary: TerraformBinary | null; reason: string } {
  const path = onPath('terraform');
  if (!path) return { binary: null, reason: 'no terraform binary on the PATH' };
  let version: string;
  try {
    const out = execFileSync(path, ['version', '-json'], {
      env: { PATH: process.env.PATH, CHECKPOINT_DISABLE: '1', HOME: tmpdir() },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    version = (JSON.parse(out.toString()) as { terraform_version: string }).terraform_version;
  } catch (err) {
    return { binary: null, reason: `${path} does not answer "terraform version -json": ${String(err)}` };
  }
  const [major, minor] = version.split('.').map(Number);
  if (major < MIN_TERRAFORM[0] || (major === MIN_TERRAFORM[0] && minor < MIN_TERRAFORM[1])) {
    return {
      binary: null,
      reason: `${path} is Terraform ${version}; the suite needs ${MIN_TERRAFORM.join('.')} or later`,
    };
  }
  return { binary: { path, version }, reason: '' };
}

const found = findTerraform();
export const TERRAFORM = found.binary;

/**
 * `describe` for a file of the suite: where no usable terraform is found, its tests are reported
 * as not run, with the reason on stderr (.ci/run refuses to start without terraform, so CI never
 * passes this way). Each test may take `timeout` ms: terraform runs take seconds each.
 */
export function describeTerraform(title: string, body: () => void, timeout = 120_000): void {
  if (!TERRAFORM) console.warn(`${title}: not run: ${found.reason}`);
  describe.runIf(TERRAFORM !== null)(title, { timeout }, body);
}

export interface CliConfig {
  /** `host` blocks: hostname -> the server's base URL (http://127.0.0.1:PORT), given instead of discovery. */
  hosts?: Record<string, string>;
  /** `credentials` blocks: hostname (with its port, if any) -> token. */
  credentials?: Record<string, string>;
}

/**
 * A Terraform CLI configuration file. A `host` block names the services berth's discovery
 * document lists (`tfe.v2` for the `cloud` block, `tfe.v2.1` which the `remote` backend requires,
 * `tfe.v2.2`), all at `/api/v2/`.
 */
export function cliConfigText(config: CliConfig): string {
  const q = (s: string) => JSON.stringify(s);
  const blocks: string[] = [];
  for (const [name, url] of Object.entries(config.hosts ?? {})) {
    const api = `${url.replace(/\/+$/, '')}/api/v2/`;
    const services = ['tfe.v2', 'tfe.v2.1', 'tfe.v2.2'].map((s) => `    ${q(s)} = ${q(api)}`).join('\n');
    blocks.push(`host ${q(name)} {\n  services = {\n${services}\n  }\n}\n`);
  }
  for (const [name, token] of Object.entries(config.credentials ?? {})) {
    blocks.push(`credentials ${q(name)} {\n  token = ${q(token)}\n}\n`);
  }
  return blocks.join('\n');
}

export function writeCliConfig(file: string, config: CliConfig): string {
  writeFileSync(file, cliConfigText(config));
  return file;
}

export interface TerraformResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
}

/** A running terraform: wait for its output to show something, type into it, kill it. */
export class TerraformRun {
  stdout = '';
  stderr = '';
  output = '';
  readonly done: Promise<TerraformResult>;
  private readonly waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  private exited = false;

  constructor(
    readonly child: ChildProcess,
    readonly describe: string,
  ) {
    this.done = new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        this.exited = true;
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr, output: this.output });
      });
    });
    child.stdout!.on('data', (d: Buffer) => this.take('stdout', d.toString()));
    child.stderr!.on('data', (d: Buffer) => this.take('stderr', d.toString()));
  }

  private take(stream: 'stdout' | 'stderr', text: string) {
    this[stream] += text;
    this.output += text;
    for (const w of [...this.waiters]) {
      const m = this.output.match(w.pattern);
      if (m) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  }

  /**
   * Resolves when the output so far matches `pattern` (on an output event, never a timer);
   * rejects with the whole output if terraform exits first.
   */
  waitFor(pattern: RegExp | string): Promise<RegExpMatchArray> {
    const re = typeof pattern === 'string' ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : pattern;
    const now = this.output.match(re);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const waiter = { pattern: re, resolve };
      this.waiters.push(waiter);
      void this.done.then((res) => {
        if (!this.waiters.includes(waiter)) return;
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`${this.describe} exited (${res.code ?? res.signal}) before printing ${re}:\n${res.output}`));
      });
    });
  }

  write(text: string): void {
    this.child.stdin!.write(text);
  }

  /** Kills terraform and whatever it started (its process group): a crash, as far as berth can tell. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<TerraformResult> {
    if (!this.exited && this.child.pid) {
      try {
        process.kill(-this.child.pid, signal);
      } catch {
        // already gone
      }
    }
    return this.done;
  }
}

export interface RunOptions {
  /** Text for terraform's stdin (its prompts read it); stdin is closed after it. */
  stdin?: string;
  /** Keep stdin open, to `write` into it later. */
  keepStdin?: boolean;
  /** More environment (e.g. another `TF_CLI_CONFIG_FILE`, `TF_WORKSPACE`). */
  env?: Record<string, string>;
}

/** Variables of the developer's or the machine's environment that would leak into a run. */
const LEAKY = /^(TF_|TFE_|BERTH_|CHECKPOINT_|SSL_CERT_|HTTPS?_PROXY$|NO_PROXY$|ALL_PROXY$)/i;

/**
 * One scenario's corner of the file system: a HOME of its own, a CLI configuration file, working
 * folders (each with its own TF_DATA_DIR), and terraform runs in them.
 */
export class TerraformSandbox {
  readonly dir: string;
  readonly home: string;
  readonly configFile: string;
  private readonly runs = new Set<TerraformRun>();

  constructor(
    config: CliConfig,
    private readonly extraEnv: Record<string, string> = {},
  ) {
    if (!TERRAFORM) throw new Error('no terraform binary');
    this.dir = mkdtempSync(join(tmpdir(), 'berth-terraform-'));
    this.home = join(this.dir, 'home');
    mkdirSync(this.home);
    this.configFile = writeCliConfig(join(this.dir, 'cli.tfrc'), config);
  }

  /** Another CLI configuration file in the sandbox (another token, say), for `env.TF_CLI_CONFIG_FILE`. */
  cliConfig(name: string, config: CliConfig): string {
    return writeCliConfig(join(this.dir, `${name}.tfrc`), config);
  }

  /** Writes `files` into the working folder `name` (created if new, files replaced) and returns its path. */
  workdir(name: string, files: Record<string, string> = {}): string {
    const dir = join(this.dir, 'work', name);
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    return dir;
  }

  env(cwd: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!LEAKY.test(k)) env[k] = v;
    return {
      ...env,
      HOME: this.home,
      TF_CLI_CONFIG_FILE: this.configFile,
      TF_DATA_DIR: join(cwd, '.terraform-data'),
      TF_IN_AUTOMATION: '1',
      CHECKPOINT_DISABLE: '1',
      NO_COLOR: '1',
      ...this.extraEnv,
      ...extra,
    };
  }

  /** Starts `terraform ...args` in `cwd` (its own process group, so `kill` takes its children too). */
  start(cwd: string, args: string[], options: RunOptions = {}): TerraformRun {
    const child = spawn(TERRAFORM!.path, args, {
      cwd,
      env: this.env(cwd, options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const run = new TerraformRun(child, `terraform ${args.join(' ')}`);
    this.runs.add(run);
    void run.done.finally(() => this.runs.delete(run));
    if (options.stdin !== undefined) child.stdin.write(options.stdin);
    if (!options.keepStdin) child.stdin.end();
    return run;
  }

  /** Runs `terraform ...args` in `cwd` to its end; never throws on a non-zero exit. */
  run(cwd: string, args: string[], options: RunOptions = {}): Promise<TerraformResult> {
    return this.start(cwd, args, options).done;
  }

  /** Kills what still runs and removes the sandbox. */
  async cleanup(): Promise<void> {
    await Promise.all([...this.runs].map((r) => r.kill()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Terraform's diagnostics without the box drawing and line wrapping, for matching a message. */
export function flat(text: string): string {
  return text
    .replace(/^[│╷╵]\s?/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The hostname the suite's CLI configurations give berth (a `host` block maps it to serve's URL). */
export const HOST = 'berth.test';

/**
 * One `berth serve` per test file and a sandbox whose CLI configuration points HOST at it with
 * the site administrator's token (call inside the file's describe). serve executes runs (it finds
 * terraform on the PATH) unless `executeRuns: false` starts it with --no-execute-runs, which makes
 * the CLI run plans and applies locally. `org(name)` creates a fresh organization with no options
 * (default settings); `berth(org)` is the berth CLI with `--server`; `api(method, path, body?)`
 * calls the API as the site administrator.
 */
export function serveForTerraform(options: { serveArgs?: string[]; executeRuns?: boolean } = {}) {
  const tmp = tempDb();
  let server: ServeProcess | undefined;
  let sandbox: TerraformSandbox | undefined;
  const get = () => server!;
  beforeAll(async () => {
    const off = options.executeRuns === false ? ['--no-execute-runs'] : [];
    server = await startServe(tmp.db, [...off, ...(options.serveArgs ?? [])]);
    sandbox = new TerraformSandbox({ hosts: { [HOST]: server.url }, credentials: { [HOST]: server.token! } });
  });
  afterAll(async () => {
    await sandbox?.cleanup();
    if (server) await server.stop('SIGKILL');
    tmp.cleanup();
  });
  const berth = (org: string) => remoteCli(get, org);
  return {
    server: get,
    sandbox: () => sandbox!,
    berth,
    /** `/api/v2` + `path` as the site administrator: the status and the parsed body (null when none). */
    async api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
      const res = await fetch(`${get().url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${get().token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    /** Creates ORG as the site administrator, who becomes its owner; no options: default settings. */
    async org(name: string) {
      const made = await berth(name).remote('org', 'create', name, '--email', `ops@${name}.test`);
      expect(made.code, made.stderr).toBe(0);
      return berth(name);
    },
  };
}

/**
 * Puts ORG's workspaces in local execution mode (the organization's default): for the scenarios
 * whose configuration reads terraform.workspace, the CLI's workspace name. berth's remote runs
 * answer "default" there (HCP Terraform, since 2022, the workspace's name: hashicorp/terraform
 * #30503); these scenarios are about how the CLI maps its workspaces, which is the same either way.
 */
export async function localByDefault(
  berth: { remote: (...args: string[]) => Promise<{ code: number; stderr: string }> },
  org: string,
) {
  const set = await berth.remote('org', 'update', org, '--default-execution-mode', 'local');
  expect(set.code, set.stderr).toBe(0);
}

/** A `terraform { cloud { ... } }` block on HOST (or `hostname`), with `workspaces` as HCL. */
export function cloudBlock(org: string, workspaces: string, hostname = HOST): string {
  return `terraform {
  cloud {
    hostname     = ${JSON.stringify(hostname)}
    organization = ${JSON.stringify(org)}
    workspaces {
      ${workspaces}
    }
  }
}
`;
}

/** The common arguments of a run without prompts. */
export const AUTO = ['-input=false', '-no-color'] as const;

/** A throwaway self-signed certificate for localhost and 127.0.0.1 (the openssl binary, at test time). */
export function throwawayCertificate(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'localhost-cert.pem');
  const key = join(dir, 'localhost-key.pem');
  const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-keyout', key, '-out', cert, ...subject],
    { stdio: 'ignore' },
  );
  return { cert, key };
}
