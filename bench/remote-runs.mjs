#!/usr/bin/env node
// Remote execution (`berth serve --execute-runs`, experimental), with the real Terraform CLI on
// the PATH (or BERTH_BENCH_TERRAFORM):
//   (a) run created -> planning started (the run's own status timestamps), p50 and p99, with RUNS
//       runs queued at once across as many workspaces (through the API: a configuration version,
//       its upload, the run), first with an executor slot for every run, then at the default
//       --run-concurrency 2 (where later runs wait for earlier plans);
//   (b) `terraform plan` of 200 terraform_data resources through berth (the `cloud` block: upload,
//       remote plan, streamed log) against the same plan run locally by the same binary, the
//       median wall time of each and their ratio (target <= 1.5);
//   (c) serve's resident memory (VmRSS, sampled every 50 ms) while 4 runs of that configuration
//       execute at once (terraform's own processes are not counted).
// The plan ratio has a floor berth cannot lower: the CLI waits a second after creating the run
// before it first reads it (go-tfe's backoff in the cloud backend), then reads the log by polling;
// the remote run also runs `terraform init` in a fresh folder and `terraform show -json` of the
// saved plan for its counts. About 1.5 s over the local plan of 200 resources (0.5 s) on a quiet
// machine: a ratio near 4 at this size, shrinking as plans get longer.
//   node bench/remote-runs.mjs [--smoke]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { create as tarCreate } from 'tar';
import { ensureBuilt, median, seededDatabase, SMOKE } from './lib.mjs';
import { api, residentMb, startBerth } from './lib/server.mjs';

const RUNS = SMOKE ? 2 : 10;
const RESOURCES = SMOKE ? 20 : 200;
const PLANS = SMOKE ? 1 : 3;
const CONCURRENT = SMOKE ? 2 : 4;
const HOST = 'berth.bench';
/** Workspaces of the seed: one per queued run, and the plans' own beside the memory runs'. */
const WORKSPACES = Math.max(RUNS, CONCURRENT + 1);

/** The p-th percentile (nearest rank) of `values`. */
function percentile(values, p) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

function findTerraform() {
  if (process.env.BERTH_BENCH_TERRAFORM) return process.env.BERTH_BENCH_TERRAFORM;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && spawnSync(join(dir, 'terraform'), ['version'], { stdio: 'ignore' }).status === 0)
      return join(dir, 'terraform');
  }
  return null;
}
const TERRAFORM = findTerraform();
if (!TERRAFORM) {
  console.log('remote-runs: not run: no terraform on the PATH (or BERTH_BENCH_TERRAFORM)');
  process.exit(0);
}

const resources = (n) =>
  Array.from({ length: n }, (_, i) => `resource "terraform_data" "r${i}" {\n  input = "value-${i}"\n}\n`).join('\n');
const cloudBlock = (workspace) =>
  `terraform {\n  cloud {\n    hostname     = "${HOST}"\n    organization = "bench"\n    workspaces {\n      name = "${workspace}"\n    }\n  }\n}\n`;

/** The configuration `main` as a .tar.gz, as the CLI uploads it. */
async function archiveOf(main) {
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-cv-'));
  writeFileSync(join(dir, 'main.tf'), main);
  const chunks = [];
  for await (const chunk of tarCreate({ gzip: true, cwd: dir, portable: true }, ['main.tf'])) chunks.push(chunk);
  rmSync(dir, { recursive: true, force: true });
  return Buffer.concat(chunks);
}

/** The workspace's id, its terraform-version set to `latest` (the seed asks for a version of its own). */
async function workspaceId(server, name) {
  const id = (await api(server, 'GET', `/api/v2/organizations/bench/workspaces/${name}`)).json.data.id;
  await api(server, 'PATCH', `/api/v2/workspaces/${id}`, {
    data: { type: 'workspaces', attributes: { 'terraform-version': 'latest' } },
  });
  return id;
}

/** A configuration version of `archive` in the workspace, uploaded; then a run of it. */
async function queueRun(server, wsId, archive) {
  const cv = await api(server, 'POST', `/api/v2/workspaces/${wsId}/configuration-versions`, {
    data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
  });
  const upload = await fetch(cv.json.data.attributes['upload-url'], {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: archive,
  });
  if (!upload.ok) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  const run = await api(server, 'POST', '/api/v2/runs', {
    data: {
      type: 'runs',
      attributes: { message: 'bench' },
      relationships: {
        workspace: { data: { type: 'workspaces', id: wsId } },
        'configuration-version': { data: { type: 'configuration-versions', id: cv.json.data.id } },
      },
    },
  });
  return run.json.data.id;
}

const FINAL = new Set(['planned', 'planned_and_finished', 'applied', 'errored', 'canceled', 'discarded']);

/** Waits until every run is past its plan; returns their documents. */
async function settled(server, ids, onTick = () => {}) {
  const done = new Map();
  while (done.size < ids.length) {
    onTick();
    for (const id of ids) {
      if (done.has(id)) continue;
      const run = (await api(server, 'GET', `/api/v2/runs/${id}`)).json.data;
      if (FINAL.has(run.attributes.status)) done.set(id, run);
    }
    if (done.size < ids.length) await new Promise((r) => setTimeout(r, 50));
  }
  const runs = ids.map((id) => done.get(id));
  const failed = runs.filter((r) => r.attributes.status === 'errored');
  if (failed.length) {
    const plan = (await api(server, 'GET', `/api/v2/plans/${failed[0].relationships.plan.data.id}`)).json.data;
    const log = await (await fetch(plan.attributes['log-read-url'])).text();
    throw new Error(`${failed.length} run(s) errored; the first one's plan log:\n${log.slice(-3000)}`);
  }
  return runs;
}

/** (a) created -> planning started of RUNS runs queued at once across RUNS workspaces. */
async function pickUp(concurrency) {
  const server = await startBerth(await seededDatabase(WORKSPACES), [
    '--execute-runs',
    '--run-concurrency',
    String(concurrency),
  ]);
  try {
    const archive = await archiveOf(resources(1));
    const ids = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) =>
        queueRun(server, await workspaceId(server, `ws-${String(i).padStart(6, '0')}`), archive),
      ),
    );
    const runs = await settled(server, ids);
    // Both from the server's clock; a claim that had already begun when the run was created may
    // stamp planning-at a millisecond or two before created-at: counted as 0.
    const waits = runs.map((r) =>
      Math.max(
        0,
        Date.parse(r.attributes['status-timestamps']['planning-at']) - Date.parse(r.attributes['created-at']),
      ),
    );
    return { p50: percentile(waits, 50), p99: percentile(waits, 99), max: Math.max(...waits) };
  } finally {
    await server.stop();
  }
}

function terraformEnv(dir, cliConfig) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(TF_|BERTH_|CHECKPOINT_)/.test(k)) env[k] = v;
  return {
    ...env,
    HOME: join(dir, 'home'),
    TF_DATA_DIR: join(dir, '.terraform-data'),
    TF_IN_AUTOMATION: '1',
    CHECKPOINT_DISABLE: '1',
    ...(cliConfig ? { TF_CLI_CONFIG_FILE: cliConfig } : {}),
  };
}

/** Wall time of `terraform ...args` in `dir`, in ms; throws on an unexpected exit code. */
function terraform(dir, args, cliConfig, okCodes = [0]) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(TERRAFORM, args, {
      cwd: dir,
      env: terraformEnv(dir, cliConfig),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (!okCodes.includes(code))
        reject(new Error(`terraform ${args.join(' ')} exited ${code}:\n${out.slice(-2000)}`));
      else resolve(ms);
    });
  });
}

function workdir(root, name, main) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'home'), { recursive: true });
  writeFileSync(join(dir, 'main.tf'), main);
  return dir;
}

/** (b) remote against local plan of RESOURCES resources; (c) VmRSS while CONCURRENT runs execute. */
async function planAndMemory(root) {
  const server = await startBerth(await seededDatabase(WORKSPACES), [
    '--execute-runs',
    '--run-concurrency',
    String(CONCURRENT),
  ]);
  try {
    const cliConfig = join(root, 'cli.tfrc');
    const services = ['tfe.v2', 'tfe.v2.1', 'tfe.v2.2'].map((s) => `    "${s}" = "${server.url}/api/v2/"`).join('\n');
    writeFileSync(
      cliConfig,
      `host "${HOST}" {\n  services = {\n${services}\n  }\n}\ncredentials "${HOST}" {\n  token = "${server.token}"\n}\n`,
    );
    await workspaceId(server, 'ws-000000');
    const local = workdir(root, 'local', resources(RESOURCES));
    const remote = workdir(root, 'remote', cloudBlock('ws-000000') + resources(RESOURCES));
    await terraform(local, ['init', '-input=false', '-no-color'], null);
    await terraform(remote, ['init', '-input=false', '-no-color'], cliConfig);
    const localMs = [];
    const remoteMs = [];
    // In alternation, so that the machine's noise falls on both alike.
    for (let i = 0; i < PLANS; i++) {
      localMs.push(await terraform(local, ['plan', '-input=false', '-no-color'], null));
      remoteMs.push(await terraform(remote, ['plan', '-input=false', '-no-color'], cliConfig));
    }

    const archive = await archiveOf(resources(RESOURCES));
    const idle = residentMb(server.pid);
    const ids = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) =>
        queueRun(server, await workspaceId(server, `ws-${String(i + 1).padStart(6, '0')}`), archive),
      ),
    );
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMb(server.pid))), 50);
    try {
      await settled(server, ids);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, residentMb(server.pid));
    return { local: median(localMs), remote: median(remoteMs), idle, peak };
  } finally {
    await server.stop();
  }
}

ensureBuilt();
const root = mkdtempSync(join(tmpdir(), 'berth-bench-remote-'));
try {
  const wide = await pickUp(RUNS);
  const narrow = RUNS > 2 ? await pickUp(2) : null;
  const { local, remote, idle, peak } = await planAndMemory(root);
  const ratio = remote / local;
  const fmt = (ms) => `${ms.toFixed(0)} ms`;
  console.log(`remote-runs: berth serve --execute-runs with ${TERRAFORM}`);
  console.log(
    `  run created -> planning started, ${RUNS} runs in ${RUNS} workspaces, --run-concurrency ${RUNS}   p50 ${fmt(wide.p50)}   p99 ${fmt(wide.p99)}`,
  );
  if (narrow)
    console.log(
      `  run created -> planning started, ${RUNS} runs in ${RUNS} workspaces, --run-concurrency 2   p50 ${fmt(narrow.p50)}   p99 ${fmt(narrow.p99)}`,
    );
  console.log(`  terraform plan, ${RESOURCES} terraform_data, local        median ${fmt(local)} (${PLANS} plans)`);
  console.log(`  terraform plan, ${RESOURCES} terraform_data, through berth median ${fmt(remote)} (${PLANS} plans)`);
  console.log(
    `  ratio                         ${ratio.toFixed(2)} (target <= 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  serve VmRSS while ${CONCURRENT} runs execute   peak ${peak.toFixed(1)} MB (before them ${idle.toFixed(1)} MB)`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
