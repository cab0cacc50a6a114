import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { localAdminActor } from '../../src/services/identity/admin-user.js';
import { openStore } from '../../src/store/open.js';
import { BIN, runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/** Workspaces the bulk jobs act on (`app-*`), and one they must never touch. */
const N = 48;
const names = Array.from({ length: N }, (_, i) => `app-${String(i).padStart(3, '0')}`);

/** A small seeded generator: the kill moments differ from round to round, the same on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

interface WorkspaceRow {
  id: string;
  name: string;
  project_id: string;
  locked: number;
  locked_reason: string | null;
  locked_by_kind: string | null;
  locked_by_id: string | null;
  locked_at: string | null;
}

interface AuditRow {
  seq: number;
  action: string;
  target_id: string | null;
  workspace_id: string | null;
}

/**
 * SIGKILL in the middle of bulk CLI jobs (`workspace lock|unlock --all-matching`, `workspace tags
 * add --all-matching`, `project move-workspaces --all-matching`), in local mode and against
 * `serve`, at moments spread over the job: afterwards the database opens and passes SQLite's
 * checks, every workspace is either changed whole or untouched, the audit trail records exactly
 * the changes the state shows, and running the job again completes it.
 */
describe('SIGKILL during bulk CLI jobs', () => {
  const tmp = tempDb();
  const next = random(19);
  let reader: Database.Database;
  let serve: ServeProcess | undefined;

  beforeAll(async () => {
    // Seeded through the API app in-process (as local mode does), so that it takes no CLI start per workspace.
    const store = await openStore(tmp.db);
    const app = createApp({ db: store.db, localActor: await localAdminActor(store.db, new Date()) });
    const post = async (path: string, data: unknown) => {
      const res = await app.fetch(
        new Request(`http://local/api/v2${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body: JSON.stringify({ data }),
        }),
      );
      expect(res.status, await res.clone().text()).toBe(201);
    };
    await post('/organizations', { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } });
    for (const project of ['blue', 'green'])
      await post('/organizations/acme/projects', { type: 'projects', attributes: { name: project } });
    for (const name of [...names, 'db-main'])
      await post('/organizations/acme/workspaces', { type: 'workspaces', attributes: { name } });
    await store.close();
    reader = new Database(tmp.db, { readonly: true });
  }, 60_000);
  afterAll(async () => {
    reader?.close();
    await serve?.stop('SIGKILL');
    tmp.cleanup();
  });

  const workspaces = () =>
    new Map(
      (
        reader
          .prepare(
            'select id, name, project_id, locked, locked_reason, locked_by_kind, locked_by_id, locked_at from workspaces',
          )
          .all() as WorkspaceRow[]
      ).map((w) => [w.name, w]),
    );
  const projectId = (name: string) =>
    (reader.prepare('select id from projects where name = ?').get(name) as { id: string }).id;
  const tagsOf = () => {
    const rows = reader
      .prepare(
        'select w.name, t.name as tag from workspace_tags wt join workspaces w on w.id = wt.workspace_id join tags t on t.id = wt.tag_id',
      )
      .all() as { name: string; tag: string }[];
    const byName = new Map<string, string[]>();
    for (const r of rows) byName.set(r.name, [...(byName.get(r.name) ?? []), r.tag].sort());
    return byName;
  };
  const lastSeq = () =>
    (reader.prepare('select coalesce(max(seq), 0) as s from audit_events').get() as { s: number }).s;
  const auditSince = (seq: number) =>
    reader
      .prepare('select seq, action, target_id, workspace_id from audit_events where seq > ?')
      .all(seq) as AuditRow[];

  /** The database file as a fresh process sees it: it opens, and SQLite's own checks pass. */
  const expectSound = () => {
    const db = new Database(tmp.db, { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  };

  /** The CLI's arguments for local mode, or against the running `serve`. */
  const where = (remote: boolean) =>
    remote ? ['--server', serve!.url, '--token', serve!.token!, '--org', 'acme'] : ['--db', tmp.db, '--org', 'acme'];

  /**
   * Runs the CLI and kills it with SIGKILL once `due()` says so (polled every 2 ms or so),
   * or lets it finish. `victim` is the process to kill: the CLI, or (against serve) the server.
   */
  const killDuring = async (
    args: string[],
    due: (elapsedMs: number) => boolean,
    victim: 'cli' | 'serve' = 'cli',
  ): Promise<{ killed: boolean }> => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, NO_COLOR: '1', BERTH_NO_INPUT: '1', BERTH_DB: '', BERTH_DATABASE_URL: '' },
      stdio: 'ignore',
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const started = performance.now();
    let killed = false;
    while (child.exitCode === null && child.signalCode === null) {
      if (due(performance.now() - started)) {
        (victim === 'cli' ? child : serve!.child).kill('SIGKILL');
        killed = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    if (victim === 'serve' && killed) {
      await new Promise<void>((done) =>
        serve!.child.exitCode !== null || serve!.child.signalCode !== null
          ? done()
          : serve!.child.once('exit', () => done()),
      );
    }
    await exited;
    return { killed };
  };

  /** Whether a round's kill came while its job was under way (some workspaces changed, not all). */
  const midJob = (r: { killed: boolean; changed: number }) => r.killed && r.changed > 0 && r.changed < N;

  /** How many `app-*` workspaces are locked now (polled while a job runs: one cheap query). */
  const locked = () =>
    (
      reader.prepare("select count(*) as n from workspaces where locked = 1 and name like 'app-%'").get() as {
        n: number;
      }
    ).n;

  /**
   * One round of `workspace lock --all-matching` killed after `killAt` workspaces were locked:
   * each workspace is locked whole (reason, holder, time) by this round or untouched, the trail
   * holds one `workspace.lock` record per workspace the round locked, and a rerun locks the rest.
   */
  const lockRound = async (round: string, remote: boolean, victim: 'cli' | 'serve' = 'cli') => {
    const seq = lastSeq();
    const killAt = 1 + Math.floor(next() * N * 0.8);
    const args = ['workspace', 'lock', '--all-matching', '--wildcard', 'app-*', '--reason', round, '--yes', '--json'];
    const { killed } = await killDuring([...args, ...where(remote)], () => locked() >= killAt, victim);
    expectSound();
    const after = workspaces();
    const changed = names.filter((n) => after.get(n)!.locked === 1);
    for (const name of names) {
      const w = after.get(name)!;
      if (w.locked === 1) {
        expect(w.locked_reason, name).toBe(round);
        expect(w.locked_by_kind, name).toBe('users');
        expect(w.locked_by_id, name).toMatch(/^user-[A-Za-z0-9]{16}$/);
        expect(w.locked_at, name).not.toBeNull();
      } else {
        expect([w.locked_reason, w.locked_by_kind, w.locked_by_id, w.locked_at], name).toEqual([
          null,
          null,
          null,
          null,
        ]);
      }
    }
    expect(after.get('db-main')!.locked).toBe(0);
    const records = auditSince(seq);
    expect(records.every((r) => r.action === 'workspace.lock')).toBe(true);
    expect(records.map((r) => r.workspace_id).sort()).toEqual(changed.map((n) => after.get(n)!.id).sort());

    // A restart prints no token (the database has one): the first start's goes on working.
    if (victim === 'serve' && killed) serve = { ...(await startServe(tmp.db)), token: serve!.token };
    const rerun = await runCli([...args, ...where(remote)]);
    // Those the killed run locked are reported as already held by the caller (a success that
    // changes nothing); every other one is locked now.
    expect(rerun.code, rerun.stderr).toBe(0);
    const results = JSON.parse(rerun.stdout) as { name: string; ok: boolean; note?: string }[];
    for (const r of results) {
      expect(r.ok, r.name).toBe(true);
      expect(r.note, r.name).toBe(changed.includes(r.name) ? 'already held' : undefined);
    }
    expect(locked()).toBe(N);
    const all = auditSince(seq).filter((r) => r.action === 'workspace.lock');
    expect(new Set(all.map((r) => r.workspace_id)).size).toBe(N);
    expect(all).toHaveLength(N);
    return { killed, changed: changed.length };
  };

  /** As lockRound, for `workspace unlock --all-matching` (which acts on the locked matches only). */
  const unlockRound = async (remote: boolean) => {
    const seq = lastSeq();
    const killAt = 1 + Math.floor(next() * N * 0.8);
    const args = ['workspace', 'unlock', '--all-matching', '--wildcard', 'app-*', '--yes', '--json', ...where(remote)];
    const { killed } = await killDuring(args, () => N - locked() >= killAt);
    expectSound();
    const after = workspaces();
    const changed = names.filter((n) => after.get(n)!.locked === 0);
    for (const name of names) {
      const w = after.get(name)!;
      const lock = [w.locked_reason, w.locked_by_kind, w.locked_by_id, w.locked_at];
      if (w.locked === 0) expect(lock, name).toEqual([null, null, null, null]);
      else
        expect(
          lock.every((v) => v !== null),
          name,
        ).toBe(true);
    }
    const records = auditSince(seq);
    expect(records.every((r) => r.action === 'workspace.unlock')).toBe(true);
    expect(records.map((r) => r.workspace_id).sort()).toEqual(changed.map((n) => after.get(n)!.id).sort());
    const rerun = await runCli(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(locked()).toBe(0);
    expect(auditSince(seq)).toHaveLength(N);
    return { killed, changed: changed.length };
  };

  it('workspace lock and unlock --all-matching, killed mid-job in local mode: each workspace whole, the trail agrees, a rerun completes', async () => {
    const rounds: { killed: boolean; changed: number }[] = [];
    // Every round's outcome is checked whole; a kill polled late (a loaded machine) may come after
    // the job's end, so rounds go on until three kills came while a job was under way.
    for (let r = 0; r < 4 && rounds.filter(midJob).length < 3; r++) {
      rounds.push(await lockRound(`freeze-${r}`, false));
      rounds.push(await unlockRound(false));
    }
    expect(rounds.filter(midJob).length, JSON.stringify(rounds)).toBeGreaterThanOrEqual(3);
  }, 240_000);

  it('workspace tags add --all-matching, killed mid-job: each workspace has both tags or neither, the trail agrees, a rerun completes', async () => {
    const rounds: { killed: boolean; changed: number }[] = [];
    // As above: rounds go on (at most four) until two kills came while the job was under way.
    for (let r = 0; r < 4 && rounds.filter(midJob).length < 2; r++) {
      const tags = [`frozen-${r}`, `hold-${r}`];
      const seq = lastSeq();
      const count = reader.prepare(
        'select count(distinct wt.workspace_id) as n from workspace_tags wt join tags t on t.id = wt.tag_id where t.name in (?, ?)',
      );
      const tagged = () => (count.get(...tags) as { n: number }).n;
      const killAt = 1 + Math.floor(next() * N * 0.8);
      const args = ['workspace', 'tags', 'add', '--all-matching', '--wildcard', 'app-*', ...tags, '--yes', '--json'];
      const { killed } = await killDuring([...args, ...where(false)], () => tagged() >= killAt);
      expectSound();
      const after = tagsOf();
      const ids = workspaces();
      const changed = names.filter((n) => (after.get(n) ?? []).some((t) => tags.includes(t)));
      rounds.push({ killed, changed: changed.length });
      for (const name of changed)
        expect(
          after.get(name)!.filter((t) => tags.includes(t)),
          name,
        ).toEqual(tags);
      expect(after.get('db-main')).toBeUndefined();
      const records = auditSince(seq);
      expect(records.every((x) => x.action === 'workspace.tags.add')).toBe(true);
      expect(records.map((x) => x.workspace_id).sort()).toEqual(changed.map((n) => ids.get(n)!.id).sort());
      const rerun = await runCli([...args, ...where(false)]);
      expect(rerun.code, rerun.stderr).toBe(0);
      const done = tagsOf();
      for (const name of names)
        expect(
          done.get(name)!.filter((t) => tags.includes(t)),
          name,
        ).toEqual(tags);
    }
    expect(rounds.filter(midJob).length, JSON.stringify(rounds)).toBeGreaterThanOrEqual(2);
  }, 240_000);

  it('project move-workspaces --all-matching (one request), killed at moments spread over its run: all moved or none, one record or none, a rerun completes', async () => {
    // How long a whole run takes, to spread the kills over it.
    const timed = performance.now();
    const first = await runCli([
      'project',
      'move-workspaces',
      'blue',
      '--all-matching',
      '--wildcard',
      'app-*',
      '--yes',
      ...where(false),
    ]);
    expect(first.code, first.stderr).toBe(0);
    const runMs = performance.now() - timed;
    const outcomes: string[] = [];
    let target = 'green';
    const ROUNDS = 4;
    for (let r = 0; r < ROUNDS; r++) {
      const seq = lastSeq();
      const from = target === 'green' ? 'blue' : 'green';
      const args = [
        'project',
        'move-workspaces',
        target,
        '--all-matching',
        '--wildcard',
        'app-*',
        '--yes',
        ...where(false),
      ];
      const delay = runMs * (0.4 + (0.8 * r) / ROUNDS);
      await killDuring(args, (elapsed) => elapsed >= delay);
      expectSound();
      const inTarget = names.filter((n) => workspaces().get(n)!.project_id === projectId(target)).length;
      const records = auditSince(seq);
      if (inTarget === 0) {
        expect(names.every((n) => workspaces().get(n)!.project_id === projectId(from))).toBe(true);
        expect(records).toEqual([]);
        outcomes.push('none');
      } else {
        expect(inTarget).toBe(N);
        expect(records.map((x) => [x.action, x.target_id])).toEqual([['project.move-workspaces', projectId(target)]]);
        outcomes.push('all');
      }
      const rerun = await runCli(args);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(names.every((n) => workspaces().get(n)!.project_id === projectId(target))).toBe(true);
      expect(auditSince(seq).filter((x) => x.action === 'project.move-workspaces')).toHaveLength(1);
      target = from;
    }
    // Some kills came before the move committed (the others may have come after it).
    expect(outcomes, outcomes.join(' ')).toContain('none');
  }, 120_000);

  it('against serve: the CLI killed mid-job, then serve killed mid-job; after a restart a rerun completes', async () => {
    serve = await startServe(tmp.db);
    expect(serve.token).not.toBeNull();
    // Each victim's rounds go on (at most three) until one kill came while the job was under way.
    const cliRounds: { killed: boolean; changed: number }[] = [];
    for (let r = 0; r < 3 && !cliRounds.some(midJob); r++) {
      cliRounds.push(await lockRound(`serve-cli-${r}`, true, 'cli'));
      await unlockRound(true);
    }
    expect(cliRounds.some(midJob), JSON.stringify(cliRounds)).toBe(true);
    const serveRounds: { killed: boolean; changed: number }[] = [];
    for (let r = 0; r < 3 && !serveRounds.some(midJob); r++) {
      if (r > 0) await unlockRound(true);
      serveRounds.push(await lockRound(`serve-down-${r}`, true, 'serve'));
    }
    expect(serveRounds.some(midJob), JSON.stringify(serveRounds)).toBe(true);
  }, 240_000);
});
