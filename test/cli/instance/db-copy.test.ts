import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/cli/common/exit-codes.js';
import { runCli, tempDb } from '../../helpers/cli.js';

describe('berth db copy between SQLite files', () => {
  const src = tempDb();
  const dst = tempDb();
  afterAll(() => {
    src.cleanup();
    dst.cleanup();
  });

  it('copies the data into a new file, which then works on its own', async () => {
    expect((await runCli(['org', 'create', 'acme', '--email', 'a@acme.test', '--db', src.db])).code).toBe(0);
    expect((await runCli(['workspace', 'create', 'web', '--org', 'acme', '--db', src.db])).code).toBe(0);
    const r = await runCli(['db', 'copy', '--db', src.db, '--to', `sqlite:${dst.db}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Copied \d+ rows from /);
    expect(r.stdout).toMatch(/workspaces\s+1/);
    const list = await runCli(['workspace', 'list', '--org', 'acme', '--db', dst.db, '--json']);
    expect(JSON.parse(list.stdout).map((w: any) => w.attributes.name)).toEqual(['web']);
  });

  it('refuses a bad --to, the source itself, and a target with data, changing nothing', async () => {
    const bad = await runCli(['db', 'copy', '--db', src.db, '--to', 'mysql://x/y']);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toMatch(/--to: unsupported database URL scheme/);
    const same = await runCli(['db', 'copy', '--db', src.db, '--to', src.db]);
    expect(same.code).toBe(EXIT.usage);
    const full = await runCli(['db', 'copy', '--db', src.db, '--to', dst.db]);
    expect(full.code).toBe(EXIT.conflict);
    const list = await runCli(['workspace', 'list', '--org', 'acme', '--db', dst.db, '--json']);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });
});
