// The module registry of bench/registry.mjs: `modules` private modules of the organization
// `bench`, each with `versions` published versions, seeded through berth's own API by a running
// `berth serve` (the module's create, then each version's create and the PUT of its archive to the
// signed upload link, exactly what `berth registry module publish` sends), with many requests in
// flight. The database is cached in bench/.cache by size.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as tarCreate } from 'tar';
import { CACHE, id, seededDatabase } from '../lib.mjs';
import { startBerth } from './server.mjs';

export const PROVIDERS = ['aws', 'azurerm', 'google', 'null'];

/** The name and provider of module `i` of the seed. */
export function moduleOf(i) {
  return { name: `mod-${String(i).padStart(5, '0')}`, provider: PROVIDERS[i % PROVIDERS.length] };
}

/** Version `j` of every module: 1.0.0 ... 1.4.0, 2.0.0 ..., five minors a major. */
export function versionOf(j) {
  return `${Math.floor(j / 5) + 1}.${j % 5}.0`;
}

/** The module's configuration: valid (terraform init parses it), with no provider to install. */
export const MODULE_MAIN_TF =
  'variable "who" {\n  type    = string\n  default = "world"\n}\n\n' +
  'resource "terraform_data" "greeting" {\n  input = "hello, ${var.who}"\n}\n\n' +
  'output "greeting" {\n  value = terraform_data.greeting.output\n}\n';

/** The module every version publishes: a valid configuration (terraform init parses it), as a tar.gz. */
export async function moduleArchive() {
  const dir = mkdtempSync(join(tmpdir(), 'berth-bench-module-'));
  writeFileSync(join(dir, 'main.tf'), MODULE_MAIN_TF);
  const chunks = [];
  for await (const chunk of tarCreate({ gzip: true, cwd: dir, portable: true }, ['main.tf'])) chunks.push(chunk);
  rmSync(dir, { recursive: true, force: true });
  return Buffer.concat(chunks);
}

/**
 * One request over `agent` (keep-alive sockets: the seed's many requests reuse them); answers
 * status and text, and throws on anything but `expected`.
 */
export function send(agent, base, token, method, path, body, expected) {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          'content-type': Buffer.isBuffer(body) ? 'application/octet-stream' : 'application/vnd.api+json',
          ...(payload ? { 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const parts = [];
        res.on('data', (d) => parts.push(d));
        res.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          if (expected !== undefined && res.statusCode !== expected)
            reject(new Error(`${method} ${url.pathname}: ${res.statusCode} ${text.slice(0, 300)}`));
          else resolve({ status: res.statusCode, headers: res.headers, text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Publishes module `i` with its versions, one request after the other. */
async function publishModule(agent, server, i, versions, archive) {
  const { name, provider } = moduleOf(i);
  await send(
    agent,
    server.url,
    server.token,
    'POST',
    '/api/v2/organizations/bench/registry-modules',
    { data: { type: 'registry-modules', attributes: { name, provider, 'registry-name': 'private' } } },
    201,
  );
  for (let j = 0; j < versions; j++) {
    const created = await send(
      agent,
      server.url,
      server.token,
      'POST',
      `/api/v2/organizations/bench/registry-modules/private/bench/${name}/${provider}/versions`,
      { data: { type: 'registry-module-versions', attributes: { version: versionOf(j) } } },
      201,
    );
    const upload = JSON.parse(created.text).data.links.upload;
    await send(agent, upload, undefined, 'PUT', upload, archive, 200);
  }
}

/**
 * The cached database holding the registry (`registry-MODULESxVERSIONS-apiN.db`). When missing,
 * the first `apiModules` modules are published through the API of a `berth serve`, `concurrency`
 * at once; every further module is written into the database directly, a copy of the rows the API
 * wrote for module 0 (module, versions, archives, audit events: every column as the service wrote
 * it, with new ids, names, times and request ids). Returns its path and, when it was made now, how.
 */
export async function seededRegistry(
  modules,
  versions,
  { apiModules = modules, concurrency = 16, onProgress = () => {} } = {},
) {
  const viaApi = Math.min(modules, Math.max(1, apiModules));
  const file = join(CACHE, `registry-${modules}x${versions}-api${viaApi}.db`);
  if (existsSync(file)) return { file, seeded: null };
  const tmp = `${file}.tmp`;
  rmSync(tmp, { force: true });
  const server = await startBerth(await seededDatabase(1), ['--no-execute-runs', '--durability', 'normal']);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const archive = await moduleArchive();
  let api;
  try {
    const started = performance.now();
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < viaApi; i = next++) {
          await publishModule(agent, server, i, versions, archive);
          if (++done % 500 === 0) onProgress(done, (performance.now() - started) / 1000);
        }
      }),
    );
    api = { modules: viaApi, requests: viaApi * (1 + 2 * versions), seconds: (performance.now() - started) / 1000 };
    // A consistent copy from a connection of this process while serve still runs (WAL mode).
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(server.db);
    db.prepare('vacuum into ?').run(tmp);
    db.close();
  } finally {
    agent.destroy();
    await server.stop();
  }
  const started = performance.now();
  await cloneModules(tmp, viaApi, modules);
  const cloned = { modules: modules - viaApi, seconds: (performance.now() - started) / 1000 };
  execFileSync('mv', [tmp, file]);
  return { file, seeded: { api, cloned } };
}

/** Modules `from`..`to - 1`, each a copy of module 0's rows (see seededRegistry), in one transaction. */
async function cloneModules(file, from, to) {
  if (from >= to) return;
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const first = moduleOf(0);
  const template = db
    .prepare('select * from registry_modules where name = ? and provider = ?')
    .get(first.name, first.provider);
  const versionRows = db
    .prepare('select * from registry_module_versions where module_id = ? order by seq')
    .all(template.id);
  const files = new Map(
    db
      .prepare(
        'select * from registry_module_files where version_id in (select id from registry_module_versions where module_id = ?)',
      )
      .all(template.id)
      .map((f) => [f.version_id, f]),
  );
  const audits = db
    .prepare(
      'select * from audit_events where target_id in (select id from registry_module_versions where module_id = ? union select ?) order by seq',
    )
    .all(template.id, template.id);
  const insertInto = (table, row) => {
    const columns = Object.keys(row).filter((c) => c !== 'seq');
    const statement = (insertInto[table] ??= db.prepare(
      `insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
    ));
    statement.run(Object.fromEntries(columns.map((c) => [c, row[c]])));
  };
  // Each copy happens a little later than the one before, as if published one after the other.
  const later = (iso, i) => (iso === null ? null : new Date(Date.parse(iso) + i * 50).toISOString());
  db.transaction(() => {
    for (let i = from; i < to; i++) {
      const { name, provider } = moduleOf(i);
      const moduleId = id('mod');
      const ids = new Map([[template.id, moduleId]]);
      const names = new Map([[template.id, `${name}/${provider}`]]);
      insertInto('registry_modules', {
        ...template,
        id: moduleId,
        name,
        provider,
        created_at: later(template.created_at, i),
        updated_at: later(template.updated_at, i),
      });
      for (const v of versionRows) {
        const versionId = id('modver');
        ids.set(v.id, versionId);
        names.set(v.id, `${name}/${provider} ${v.version}`);
        insertInto('registry_module_versions', {
          ...v,
          id: versionId,
          module_id: moduleId,
          created_at: later(v.created_at, i),
          updated_at: later(v.updated_at, i),
          uploaded_at: later(v.uploaded_at, i),
        });
        const f = files.get(v.id);
        if (f) insertInto('registry_module_files', { ...f, version_id: versionId });
      }
      for (const a of audits)
        insertInto('audit_events', {
          ...a,
          id: id('ae'),
          occurred_at: later(a.occurred_at, i),
          target_id: ids.get(a.target_id),
          target_name: names.get(a.target_id),
          request_id: randomUUID(),
        });
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}
