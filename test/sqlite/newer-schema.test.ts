import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';

/**
 * A database a newer berth migrated (issue 46): its `berth_migrations` ledger holds a migration
 * this build does not know. berth refuses it, naming both versions (exit code 2), in local mode
 * and in serve, and writes nothing to it (README, "Upgrading").
 */
describe('a database of a newer berth', () => {
  let tmp: ReturnType<typeof tempDb>;
  beforeEach(async () => {
    tmp = tempDb();
    const made = await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test'], { BERTH_DB: tmp.db });
    expect(made.code, made.stderr).toBe(0);
    const db = new Database(tmp.db);
    db.prepare('insert into berth_migrations (version, name, applied_at) values (?, ?, ?)').run(
      9001,
      '9001_from_the_future',
      '2030-01-01T00:00:00.000Z',
    );
    db.close();
  });
  afterEach(() => tmp.cleanup());

  const expectRefused = (result: { code: number; stderr: string }) => {
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `the database ${tmp.db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was last upgraded by a newer berth: its schema has migration 9001 \\(9001_from_the_future\\), and this berth knows migrations up to \\d+\\.`,
      ),
    );
    expect(result.stderr).toContain('restore a backup made before the upgrade');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  };

  it('local mode refuses to read or write it', async () => {
    expectRefused(await runCli(['org', 'list'], { BERTH_DB: tmp.db }));
    expectRefused(await runCli(['org', 'create', 'other', '--email', 'o@o.test'], { BERTH_DB: tmp.db }));
    // Nothing was written: the organization made before is the only one.
    const db = new Database(tmp.db, { readonly: true });
    expect(db.prepare('select name from organizations').all()).toEqual([{ name: 'acme' }]);
    db.close();
  });

  it('serve refuses to start on it', async () => {
    expectRefused(await runCli(['serve', '--port', '0', '--database', tmp.db, '--no-execute-runs']));
  });
});
