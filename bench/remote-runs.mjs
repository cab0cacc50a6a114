#!/usr/bin/env node
// Remote execution (`berth serve`, which executes runs when it finds terraform), with the real Terraform CLI on
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
// The plan ratio has a floor berth cannot lower: the CLI itself sleeps 0.5 s after uploading the
// configuration before it reads its status, and 1 s after creating the run before it first reads
// it (internal/cloud's fixed poll interval and backoff), 1.5 s in all; the server's work (the
// claim, `terraform init` in a fresh folder, the plan) runs during the second sleep. What berth
// adds beyond it: requests (a few ms each), server work that outlasts the sleep, and the log: a
// read at the end of a log still being written waits for more (up to 2 s) rather than answering
// empty, after which go-tfe would sleep 0.5 to 2 s. At 200 resources (a local plan of 0.2 to
// 0.5 s) the floor alone makes the ratio 4 to 8; the target of 1.5 needs plans of several seconds.
//   node bench/remote-runs.mjs [--smoke] [--breakdown]
// --breakdown: instead, where the time of one remote plan goes (the CLI's requests through a
// timing proxy, the run's status timestamps) and the executor's terraform steps timed alone.
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

/** A proxy in front of `server` that notes each request: [start, end, method, path, bytes answered]. */
async function timingProxy(server) {
  const { createServer, request } = await import('node:http');
  const target = new URL(server.url);
  const seen = [];
  const proxy = createServer((req, res) => {
    const start = performance.now();
    const up = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        let bytes = 0;
        answer.on('data', (d) => {
          bytes += d.length;
          res.write(d);
        });
        answer.on('end', () => {
          res.end();
          seen.push({ start, end: performance.now(), method: req.method, path: req.url, bytes });
        });
      },
    );
    req.pipe(up);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${proxy.address().port}`, seen, close: () => proxy.close() };
}

/** Where the time of a remote plan goes: the median of PLANS plans, step by step. */
async function breakdown(root) {
  const server = await startBerth(await seededDatabase(1), ['--execute-runs']);
  const proxy = await timingProxy(server);
  try {
    const cliConfig = join(root, 'cli.tfrc');
    const services = ['tfe.v2', 'tfe.v2.1', 'tfe.v2.2'].map((s) => `    "${s}" = "${proxy.url}/api/v2/"`).join('\n');
    writeFileSync(
      cliConfig,
      `host "${HOST}" {\n  services = {\n${services}\n  }\n}\ncredentials "${HOST}" {\n  token = "${server.token}"\n}\n`,
    );
    const wsId = await workspaceId(server, 'ws-000000');
    const local = workdir(root, 'local', resources(RESOURCES));
    const remote = workdir(root, 'remote', cloudBlock('ws-000000') + resources(RESOURCES));
    await terraform(local, ['init', '-input=false', '-no-color'], null);
    await terraform(remote, ['init', '-input=false', '-no-color'], cliConfig);
    const rows = [];
    for (let i = 0; i < PLANS; i++) {
      const localMs = await terraform(local, ['plan', '-input=false', '-no-color'], null);
      proxy.seen.length = 0;
      const t0 = performance.now();
      const wall0 = Date.now();
      const total = await terraform(remote, ['plan', '-input=false', '-no-color'], cliConfig);
      const req = proxy.seen.map((r) => ({ ...r, start: r.start - t0, end: r.end - t0 }));
      const first = (re) => req.find((r) => re.test(`${r.method} ${r.path}`));
      const upload = first(/^PUT .*\/upload/);
      const cvRead = first(/^GET \/api\/v2\/configuration-versions\//);
      const create = first(/^POST \/api\/v2\/runs$/);
      const runReads = req.filter((r) =>
        /^GET \/api\/v2\/runs\/run-[^/]+$/.test(`${r.method} ${r.path.replace(/\?.*/, '')}`),
      );
      const firstPoll = runReads.find((r) => r.start > create.end + 500);
      const logs = req.filter((r) => r.path.includes('/run-logs/'));
      const lastData = logs.filter((r) => r.bytes > 0).at(-1);
      const run = (await api(server, 'GET', `/api/v2/workspaces/${wsId}/runs`)).json.data[0];
      const at = (k) => Date.parse(run.attributes['status-timestamps'][k]) - wall0;
      rows.push({
        local: localMs,
        total,
        'CLI start -> first request': req[0].start,
        'configuration version + upload': upload.end - first(/configuration-versions$/).start,
        'CLI sleep after upload (CV poll)': cvRead.start - upload.end,
        'run create (POST /runs)': create.end - create.start,
        'CLI sleep before its first run read': firstPoll.start - create.end,
        'server: created -> planning': at('planning-at') - (Date.parse(run.attributes['created-at']) - wall0),
        'server: planning -> planned (init, plan, counts)': at('planned-at') - at('planning-at'),
        'server work past the CLI sleep': Math.max(0, at('planned-at') - firstPoll.start),
        'log reads (count)': logs.length,
        'first run read -> last log byte': lastData.end - firstPoll.start,
        'last log byte -> CLI exit': total - lastData.end,
        'requests other than log reads, summed': req
          .filter((r) => !r.path.includes('/run-logs/'))
          .reduce((n, r) => n + (r.end - r.start), 0),
      });
    }
    // The executor's steps alone, in a fresh folder as it runs them (backend forced local).
    const alone = workdir(root, 'alone', resources(RESOURCES));
    writeFileSync(
      join(alone, 'zz_override.tf'),
      'terraform {\n  backend "local" {\n    path = "terraform.tfstate"\n  }\n}\n',
    );
    const steps = { init: [], 'plan -out': [], 'show -json': [] };
    for (let i = 0; i < PLANS; i++) {
      rmSync(join(alone, '.terraform-data'), { recursive: true, force: true });
      steps.init.push(await terraform(alone, ['init', '-input=false', '-no-color', '-reconfigure'], null));
      steps['plan -out'].push(
        await terraform(
          alone,
          ['plan', '-input=false', '-no-color', '-out=p.tfplan', '-detailed-exitcode'],
          null,
          [0, 2],
        ),
      );
      steps['show -json'].push(await terraform(alone, ['show', '-json', '-no-color', 'p.tfplan'], null));
    }
    console.log(`remote-runs --breakdown: ${RESOURCES} terraform_data, median of ${PLANS} plans, ms (${TERRAFORM})`);
    for (const key of Object.keys(rows[0]))
      console.log(
        `  ${key.padEnd(50)} ${median(rows.map((r) => r[key]))
          .toFixed(0)
          .padStart(6)}`,
      );
    console.log("  the executor's terraform steps, alone:");
    for (const [k, v] of Object.entries(steps))
      console.log(`    terraform ${k.padEnd(44)} ${median(v).toFixed(0).padStart(6)}`);
  } finally {
    proxy.close();
    await server.stop();
  }
}

ensureBuilt();
const root = mkdtempSync(join(tmpdir(), 'berth-bench-remote-'));
if (process.argv.includes('--breakdown')) {
  try {
    await breakdown(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  process.exit(0);
}
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
