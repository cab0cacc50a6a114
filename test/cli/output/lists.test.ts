import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import { systemClock } from '../../../src/domain/common/clock.js';
import { DEFAULT_SETTINGS } from '../../../src/services/context.js';
import { createProject } from '../../../src/services/projects/projects.js';
import { createRun } from '../../../src/services/runs/runs.js';
import { createWorkspace } from '../../../src/services/workspaces/workspaces-write.js';
import { openStore } from '../../../src/store/open.js';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

// Lists are never silently truncated: every page by default, `--limit N` to stop early.
describe('list commands print every item by default', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli, { quiet: true });
  const rows = (stdout: string) => stdout.trim().split('\n').length - 1; // minus the header

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    const store = await openStore(tmp.db);
    const ctx = { db: store.db, actor: LOCAL_SITE_ADMIN, clock: systemClock, settings: DEFAULT_SETTINGS };
    // 25 new projects and the default project: 26, more than the API's default page of 20.
    for (let i = 0; i < 25; i++) await createProject(ctx, 'acme', { name: `p${String(i).padStart(2, '0')}` });
    const ws: string[] = [];
    for (let i = 0; i < 26; i++) ws.push((await createWorkspace(ctx, 'acme', { name: `w${i}` })).id);
    for (let i = 0; i < 25; i++) await createRun(ctx, { workspaceId: ws[0], message: `run ${i}`, isDestroy: false });
    await store.close();
  });
  afterAll(() => tmp.cleanup());

  it('project list: 26 in the table and in --json, 5 with --limit 5', async () => {
    const table = await cli('project', 'list');
    expect(table.code, table.stderr).toBe(0);
    expect(rows(table.stdout)).toBe(26);
    expect(table.stderr).toBe('');
    expect(await json('project', 'list')).toHaveLength(26);
    expect(await json('project', 'list', '--limit', '5')).toHaveLength(5);
    expect(rows((await cli('project', 'list', '--limit', '5')).stdout)).toBe(5);
  });

  it('workspace list: 26, and 5 with --limit 5', async () => {
    expect(rows((await cli('workspace', 'list')).stdout)).toBe(26);
    expect(await json('workspace', 'list')).toHaveLength(26);
    const five = await json('workspace', 'list', '--limit', '5');
    expect(five.map((w: { attributes: { name: string } }) => w.attributes.name)).toEqual([
      'w0',
      'w1',
      'w2',
      'w3',
      'w4',
    ]);
  });

  it('run list: 25, newest first, and 5 with --limit 5', async () => {
    expect(rows((await cli('run', 'list', 'w0')).stdout)).toBe(25);
    const all = await json('run', 'list', 'w0');
    expect(all).toHaveLength(25);
    const five = await json('run', 'list', 'w0', '--limit', '5');
    expect(five.map((r: { id: string }) => r.id)).toEqual(all.slice(0, 5).map((r: { id: string }) => r.id));
  });

  it('--limit stops across pages (more than one page of 100 is not needed for 30)', async () => {
    expect(await json('workspace', 'list', '--limit', '30')).toHaveLength(26);
    expect(await json('org', 'list', '--limit', '1')).toHaveLength(1);
    expect(await json('team', 'list', '--limit', '1')).toHaveLength(1);
  });

  it('a list cut by --limit says "showing N of M" on stderr for people; --json and uncut lists say nothing', async () => {
    const cut = await cli('project', 'list', '--limit', '5');
    expect(cut.stderr).toBe('Showing 5 of 26 (--limit 5); leave out --limit for all.\n');
    const runs = await cli('run', 'list', 'w0', '--limit', '3', '--output', 'csv');
    expect(runs.stderr).toBe('Showing 3 of 25 (--limit 3); leave out --limit for all.\n');
    const asJson = await cli('project', 'list', '--limit', '5', '--json');
    expect(asJson.stderr).toBe('');
    expect(JSON.parse(asJson.stdout)).toHaveLength(5);
    expect((await cli('workspace', 'list', '--limit', '30')).stderr).toBe('');
    expect((await cli('workspace', 'list', '--limit', '26')).stderr).toBe('');
  });

  it('--page/--page-size still print one page, with a note of the others; --limit with --page is a usage error', async () => {
    const page = await cli('workspace', 'list', '--page', '2', '--page-size', '10');
    expect(rows(page.stdout)).toBe(10);
    expect(page.stderr).toContain('Page 2 of 3 (26 items)');
    expect((await cli('workspace', 'list', '--page', '2', '--limit', '3')).code).toBe(2);
    expect((await cli('run', 'list', 'w0', '--limit', '0')).code).toBe(2);
  });

  it('workspace show --json is the resource with or without --include; --json-document is the document', async () => {
    const plain = await json('workspace', 'show', 'w1');
    const included = await json('workspace', 'show', 'w1', '--include', 'project');
    expect(included.type).toBe('workspaces');
    expect(included.id).toBe(plain.id);
    expect(included).not.toHaveProperty('data');
    expect(included).not.toHaveProperty('included');
    const res = await cli('workspace', 'show', 'w1', '--include', 'project', '--json-document');
    expect(res.code, res.stderr).toBe(0);
    const doc = JSON.parse(res.stdout);
    expect(Object.keys(doc).sort()).toEqual(['data', 'included']);
    expect(doc.data.id).toBe(plain.id);
    expect(doc.included.map((r: { type: string }) => r.type)).toEqual(['projects']);
  });

  it('filter values that can match nothing are usage errors (2), not empty lists', async () => {
    const bogus = await cli('workspace', 'list', '--run-status', 'applied,bogus');
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('--run-status: unknown status bogus; the statuses are pending,');
    expect(bogus.stdout).toBe('');
    const middle = await cli('workspace', 'list', '--wildcard', 'w*1');
    expect(middle.code).toBe(2);
    expect(middle.stderr).toContain('* may only begin or end the pattern');
    // The same filters guard the bulk operations.
    const bulk = await cli('workspace', 'lock', '--all-matching', '--wildcard', 'a*b', '--yes');
    expect(bulk.code).toBe(2);
    // Valid ones still work.
    expect(await json('workspace', 'list', '--run-status', 'pending')).toHaveLength(1);
    expect(await json('workspace', 'list', '--wildcard', 'w2*')).toHaveLength(7);
    expect(await json('workspace', 'list', '--wildcard', '*1*')).toHaveLength(12);
  });
});
