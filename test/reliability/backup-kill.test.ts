import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backupDatabase } from '../../src/store/backup.js';
import { openStore } from '../../src/store/open.js';
import { BIN, runCli, tempDb } from '../helpers/cli.js';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, renameSync: vi.fn(fs.renameSync) };
});

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The marker a backup holds (the source's at the time), or null when the file is not a whole, sound backup. */
function markerOf(file: string): string | null {
  if (!existsSync(file)) return null;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    if (db.pragma('integrity_check', { simple: true }) !== 'ok') return null;
    if (!db.prepare("select 1 from sqlite_master where name = 'berth_migrations'").get()) return null;
    return (db.prepare('select value from marker').get() as { value: string }).value;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/**
 * `berth backup FILE --force` over an existing backup, killed with SIGKILL at moments spread over
 * its run, or failing at its last step: FILE is always a whole backup (the old one, or the new
 * one), and the next backup removes what the killed ones left beside it.
 */
describe('backup --force when killed or failing', () => {
  const tmp = tempDb();
  const backup = join(tmp.dir, 'nightly.db');
  const partials = () => readdirSync(tmp.dir).filter((f) => f.startsWith('nightly.db.partial-'));
  /** Runs `berth backup FILE --force`; `copying` resolves once its partial file exists. */
  const startBackup = () => {
    const child = spawn(process.execPath, [BIN, 'backup', backup, '--db', tmp.db, '--force'], { stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const copying = (async () => {
      const partial = join(tmp.dir, `nightly.db.partial-${child.pid}`);
      while (!existsSync(partial) && child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
    })();
    return { child, exited, copying };
  };
  const setMarker = (value: string) => {
    const db = new Database(tmp.db);
    db.prepare('update marker set value = ?').run(value);
    db.close();
  };

  beforeAll(async () => {
    // A berth database with about 60 MB more in it, so that a backup takes a while.
    const store = await openStore(tmp.db);
    await store.close();
    const db = new Database(tmp.db);
    db.exec('create table filler (data blob); create table marker (value text); insert into marker values (null)');
    const insert = db.prepare('insert into filler values (?)');
    db.transaction(() => {
      for (let i = 0; i < 1500; i++) insert.run(randomBytes(40_000));
    })();
    db.close();
  }, 120_000);
  afterAll(() => tmp.cleanup());

  it('leaves FILE the old backup or the new one, whole, whenever it is killed; the next backup removes the leftovers', async () => {
    setMarker('old');
    const first = await runCli(['backup', backup, '--db', tmp.db]);
    expect(first.code, first.stderr).toBe(0);
    // How long the copy takes, from the moment its partial file appears to the end of the run.
    setMarker('timing');
    const timed = startBackup();
    await timed.copying;
    let started = performance.now();
    expect(await timed.exited).toBe(0);
    const copyMs = performance.now() - started;
    let current = { marker: 'timing', hash: sha256(backup) };

    // Kills spread over the copy and its last steps, each a little later than the one before.
    const KILLS = 9;
    const outcomes: string[] = [];
    let leftovers = 0;
    for (let k = 0; k < KILLS; k++) {
      setMarker(`kill-${k}`);
      const run = startBackup();
      await run.copying;
      started = performance.now();
      await new Promise((r) => setTimeout(r, (copyMs * (k + 0.5)) / KILLS));
      run.child.kill('SIGKILL');
      await run.exited;
      const marker = markerOf(backup);
      if (marker === current.marker) {
        // Killed before the rename: the old backup, byte for byte.
        expect(sha256(backup)).toBe(current.hash);
        outcomes.push('old');
      } else {
        expect(marker, `after a kill at ${(performance.now() - started).toFixed(0)} ms`).toBe(`kill-${k}`);
        current = { marker: marker!, hash: sha256(backup) };
        outcomes.push('new');
      }
      leftovers = Math.max(leftovers, partials().length);
    }
    expect(outcomes.filter((o) => o === 'old').length, outcomes.join(' ')).toBeGreaterThan(0);
    expect(leftovers).toBeGreaterThan(0);
    // The database the killed backups read from is untouched by them.
    expect(markerOf(tmp.db)).toBe(`kill-${KILLS - 1}`);

    setMarker('final');
    const final = await runCli(['backup', backup, '--db', tmp.db, '--force', '--json']);
    expect(final.code, final.stderr).toBe(0);
    expect(markerOf(backup)).toBe('final');
    expect(partials()).toEqual([]);
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith('nightly.db'))).toEqual(['nightly.db']);
  }, 180_000);

  it('keeps the old backup whole when the final rename fails (an I/O error), and leaves no partial file', async () => {
    setMarker('before-error');
    await backupDatabase(tmp.db, backup, { force: true });
    const hash = sha256(backup);
    setMarker('after-error');
    vi.mocked(renameSync).mockImplementationOnce(() => {
      throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
    });
    await expect(backupDatabase(tmp.db, backup, { force: true })).rejects.toThrow(/EIO/);
    expect(sha256(backup)).toBe(hash);
    expect(markerOf(backup)).toBe('before-error');
    expect(partials()).toEqual([]);
  });

  it('a killed first backup leaves no FILE at all, or a whole one: never a partial file under its name', async () => {
    const fresh = join(tmp.dir, 'first.db');
    const timed = spawn(process.execPath, [BIN, 'backup', fresh, '--db', tmp.db], { stdio: 'ignore' });
    const started = performance.now();
    await new Promise((r) => timed.once('exit', r));
    const runMs = performance.now() - started;
    setMarker('first');
    const seen: string[] = [];
    for (let k = 0; k < 3; k++) {
      rmSync(fresh, { force: true });
      const child = spawn(process.execPath, [BIN, 'backup', fresh, '--db', tmp.db], { stdio: 'ignore' });
      const exited = new Promise((r) => child.once('exit', r));
      await new Promise((r) => setTimeout(r, (runMs * (k + 0.5)) / 3));
      child.kill('SIGKILL');
      await exited;
      if (!existsSync(fresh)) seen.push('none');
      else {
        expect(markerOf(fresh)).toBe('first');
        seen.push('whole');
      }
    }
    // Some kills came while the copy was still beside FILE.
    expect(seen, seen.join(' ')).toContain('none');
    const after = await runCli(['backup', fresh, '--db', tmp.db, '--force']);
    expect(after.code, after.stderr).toBe(0);
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith('first.db'))).toEqual(['first.db']);
  }, 120_000);

  it("removes the leftovers (and their journals) of dead processes only: not a running backup's, not other files", async () => {
    // A process that has ended (its pid is free) and one that runs (a backup in progress, here a sleeper).
    const ended = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => ended.once('exit', r));
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const dead = [
        `partial-${ended.pid}`,
        `partial-${ended.pid}-journal`,
        `partial-${ended.pid}-wal`,
        `partial-${ended.pid}-shm`,
      ];
      const kept = [
        `partial-${running.pid}`,
        `partial-${running.pid}-journal`,
        'partial-notes.txt',
        `partial-${ended.pid}-old`,
      ];
      for (const suffix of [...dead, ...kept]) writeFileSync(join(tmp.dir, `nightly.db.${suffix}`), 'leftover');
      writeFileSync(join(tmp.dir, `weekly.db.partial-${ended.pid}`), 'another backup file');
      await backupDatabase(tmp.db, backup, { force: true });
      const left = readdirSync(tmp.dir).filter((f) => f.startsWith('nightly.db.') || f.startsWith('weekly.db'));
      expect(left.sort()).toEqual([...kept.map((x) => `nightly.db.${x}`), `weekly.db.partial-${ended.pid}`].sort());
    } finally {
      running.kill('SIGKILL');
      for (const f of readdirSync(tmp.dir))
        if (f.startsWith('nightly.db.partial-') || f.startsWith('weekly.db')) rmSync(join(tmp.dir, f), { force: true });
    }
  });
});
