import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

// Issue 33: a typo in --db or BERTH_DB silently created an empty database. Only the set-up
// commands (org create, serve, restore, the target of db copy) create one now.
describe('a database file that does not exist', () => {
  const tmp = tempDb();
  const typo = join(tmp.dir, 'bert.db');
  beforeAll(async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'a@acme.test'], { BERTH_DB: tmp.db })).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('is refused, named with where it came from, and not created', async () => {
    const viaFlag = await runCli(['workspace', 'list', '--org', 'acme', '--db', typo]);
    expect(viaFlag.code).toBe(2);
    expect(viaFlag.stderr).toBe(
      `Error: no database at ${typo} (from flag --db): check the path, or create a database there with \`berth org create NAME --email EMAIL\` (or \`berth serve\`, \`berth restore BACKUP\`)\n`,
    );
    const viaEnv = await runCli(['org', 'list'], { BERTH_DB: typo });
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stderr).toContain(`no database at ${typo} (from environment BERTH_DB)`);
    const viaUrl = await runCli(['org', 'list', '--database', `sqlite:${typo}`]);
    expect(viaUrl.code).toBe(2);
    expect(viaUrl.stderr).toContain(`no database at ${typo} (from flag --database)`);
    expect(existsSync(typo)).toBe(false);
  });

  it('backup and the source of db copy refuse it too; the copy target is created', async () => {
    const backup = await runCli(['backup', join(tmp.dir, 'b.db'), '--db', typo]);
    expect(backup.code).toBe(2);
    expect(backup.stderr).toContain(`no database at ${typo}`);
    const target = join(tmp.dir, 'copy.db');
    const fromTypo = await runCli(['db', 'copy', '--db', typo, '--to', target]);
    expect(fromTypo.code).toBe(2);
    expect(existsSync(target)).toBe(false);
    const copy = await runCli(['db', 'copy', '--db', tmp.db, '--to', target]);
    expect(copy.code, copy.stderr).toBe(0);
    expect(existsSync(target)).toBe(true);
    expect(existsSync(typo)).toBe(false);
  });

  it('the default database on a fresh machine: says there is none yet and how to start', async () => {
    const home = join(tmp.dir, 'home');
    const fresh = { HOME: home, XDG_DATA_HOME: '' };
    const path = join(home, '.local', 'share', 'berth', 'berth.db');
    const list = await runCli(['org', 'list'], fresh);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain(`Error: there is no berth database yet (${path}). Start one with \`berth org create`);
    expect(list.stdout).toBe('');
    expect(existsSync(path)).toBe(false);
    expect((await runCli(['org', 'create', 'first', '--email', 'f@first.test'], fresh)).code).toBe(0);
    expect(existsSync(path)).toBe(true);
    const after = await runCli(['org', 'list', '--json'], fresh);
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout).map((o: { id: string }) => o.id)).toEqual(['first']);
  });
});
