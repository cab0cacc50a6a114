// The ceiling of write-rate's lock/unlock pairs: what a server with no framework, no
// authentication and no berth code reaches when each request costs only what a lock or an unlock
// over HTTP cannot avoid. A bare node:http server (own process) over a migrated copy of the seed
// that reads the request body (the lock's JSON reason), and commits as berth's group commit
// does: the requests that arrived by the next turn of the event loop share one transaction, each
// in its own savepoint doing the storage floor's work (read the workspace row with its
// organization, update its lock columns, insert an audit record), one COMMIT for the batch and,
// at durability `full`, one flush of the WAL (fdatasync on libuv's thread pool) before the batch
// is answered. Each answer is JSON.stringify of the workspace document berth answered, with the
// lock attributes put in.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../lib.mjs';
import { startScriptServer } from './server.mjs';
import { migratedCopy } from './storage-floor.mjs';

const SERVER = `
  const [file, optionsFile] = process.argv.slice(1);
  const { fdatasync, openSync, readFileSync } = require('node:fs');
  const { randomBytes } = require('node:crypto');
  const { durability, document } = JSON.parse(readFileSync(optionsFile, 'utf8'));
  const Database = require(require.resolve('better-sqlite3', { paths: [${JSON.stringify(ROOT)}] }));
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  const read = db.prepare(
    'select workspaces.*, organizations.name as org_name from workspaces ' +
      'join organizations on organizations.id = workspaces.organization_id where workspaces.id = ?',
  );
  const update = db.prepare(
    'update workspaces set locked = ?, locked_reason = ?, locked_by_kind = ?, locked_by_id = ?, locked_at = ? where id = ?',
  );
  const audit = db.prepare(
    'insert into audit_events (id, occurred_at, action, actor_kind, actor_id, actor_token_id, actor_name, ' +
      'target_type, target_id, target_name, organization_id, organization_name, workspace_id, request_id) ' +
      "values (?, ?, ?, 'user', 'user-bench', 'at-bench', 'admin', 'workspaces', ?, ?, ?, ?, ?, ?)",
  );
  const [begin, commit, savepoint, release, rollbackTo] = [
    'begin immediate', 'commit', 'savepoint w', 'release w', 'rollback to w',
  ].map((q) => db.prepare(q));
  let wal = null;
  let queue = [];
  let scheduled = false;
  const work = ({ id, lock, reason }) => {
    const row = read.get(id);
    if (!row) return [404, { errors: [{ status: '404', title: 'not found' }] }];
    if (lock === (row.locked === 1)) return [409, { errors: [{ status: '409', title: 'conflict' }] }];
    const now = new Date().toISOString();
    update.run(lock ? 1 : 0, lock ? reason : null, lock ? 'users' : null, lock ? 'user-bench' : null, lock ? now : null, id);
    const action = lock ? 'workspace.lock' : 'workspace.unlock';
    audit.run('ae-' + randomBytes(12).toString('hex'), now, action, id, row.name, row.organization_id, row.org_name, id,
      randomBytes(8).toString('hex'));
    const attributes = { ...document.data.attributes, name: row.name, locked: lock, 'locked-reason': lock ? reason : null };
    return [200, { ...document, data: { ...document.data, id, attributes } }];
  };
  const answer = (jobs) => {
    for (const job of jobs) {
      const body = JSON.stringify(job.answer[1]);
      job.res.writeHead(job.answer[0], { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body) });
      job.res.end(body);
    }
  };
  const batch = () => {
    scheduled = false;
    const jobs = queue;
    queue = [];
    begin.run();
    for (const job of jobs) {
      savepoint.run();
      try {
        job.answer = work(job);
        release.run();
      } catch (err) {
        rollbackTo.run();
        release.run();
        job.answer = [500, { errors: [{ status: '500', title: String(err) }] }];
      }
    }
    commit.run();
    if (durability !== 'full') return answer(jobs);
    wal ??= openSync(file + '-wal', 'r+');
    fdatasync(wal, (err) => {
      if (err) throw err;
      answer(jobs);
    });
  };
  const route = /^\\/api\\/v2\\/workspaces\\/([^/]+)\\/actions\\/(lock|unlock)$/;
  const server = require('node:http').createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const m = route.exec(req.url);
      if (!m || req.method !== 'POST') {
        res.writeHead(404);
        return res.end();
      }
      const text = Buffer.concat(chunks).toString();
      queue.push({ id: m[1], lock: m[2] === 'lock', reason: text ? (JSON.parse(text).reason ?? '') : '', res });
      if (!scheduled) {
        scheduled = true;
        setImmediate(batch);
      }
    });
  });
  server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));`;

/**
 * Starts the write ceiling over a migrated copy of `seedFile` at `durability` ('full' | 'normal'),
 * answering with `document` (a JSON:API workspace document berth answered). `idsFile` lists the
 * workspaces of the copy (the first `count`), for the load.
 */
export async function startWriteCeiling(seedFile, { durability, document, count }) {
  const { dir, file } = migratedCopy(seedFile, 'write-ceiling');
  const optionsFile = join(dir, 'options.json');
  writeFileSync(optionsFile, JSON.stringify({ durability, document }));
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file, { readonly: true });
  const ids = db.prepare('select id from workspaces order by seq limit ?').pluck().all(count);
  db.close();
  const idsFile = join(dir, 'ids.json');
  writeFileSync(idsFile, JSON.stringify(ids));
  const server = await startScriptServer(SERVER, [file, optionsFile], 'write ceiling server', () =>
    rmSync(dir, { recursive: true, force: true }),
  );
  return { ...server, idsFile };
}
