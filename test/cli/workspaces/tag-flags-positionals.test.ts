import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

// Repeatable flags take one value each: a word after `--tag K=V` is an argument, not a second tag.
// `--tag` (key-value) and `--tags` (flat names) are not interchangeable, and say so.
describe('--tag takes one value; --tags refuses key-value tags (issue 33)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const names = async (...args: string[]) => {
    const res = await cli(...args, '--json');
    expect(res.code, res.stderr).toBe(0);
    return (JSON.parse(res.stdout) as { attributes: { name: string } }[]).map((w) => w.attributes.name).sort();
  };

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app-prod', '--tag', 'env=prod')).code).toBe(0);
    expect((await cli('workspace', 'create', 'db-prod', '--tag', 'env=prod', '--tag', 'tier=1')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app-dev', '--tag', 'env=dev')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('bulk tags add: the word after --tag K=V is the tag to add', async () => {
    const res = await cli('workspace', 'tags', 'add', '--all-matching', '--tag', 'env=prod', 'frozen', '--yes');
    expect(res.stderr).not.toContain('give at least one tag');
    expect(res.code, res.stderr).toBe(0);
    expect(await names('workspace', 'list', '--tags', 'frozen')).toEqual(['app-prod', 'db-prod']);
  });

  it('workspace list --tag K=V NAME is refused as an unexpected argument, not read as a second tag', async () => {
    const res = await cli('workspace', 'list', '--tag', 'env=prod', 'app-prod');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('app-prod');
    expect(res.stdout).not.toContain('No workspaces.');
    // Repeating the flag still means AND.
    expect(await names('workspace', 'list', '--tag', 'env=prod', '--tag', 'tier=1')).toEqual(['db-prod']);
  });

  it('create --tag K=V --tag K2=V2 NAME: the name is the argument', async () => {
    expect((await cli('workspace', 'create', '--tag', 'env=qa', '--tag', 'tier=2', 'app-qa')).code).toBe(0);
    expect(await names('workspace', 'list', '--tag', 'env=qa')).toEqual(['app-qa']);
  });

  it('--tags with a key-value tag is a usage error pointing at --tag', async () => {
    const res = await cli('workspace', 'list', '--tags', 'env=prod');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('use --tag env=prod');
    const bulk = await cli('workspace', 'lock', '--all-matching', '--tags', 'env=prod', '--yes');
    expect(bulk.code).toBe(2);
    expect(bulk.stderr).toContain('use --tag env=prod');
    const excl = await cli('workspace', 'list', '--exclude-tags', 'env=dev');
    expect(excl.code).toBe(2);
    expect(excl.stderr).toContain('flat tags');
    // A flat tag argument with "=" says where key-value tags go.
    const add = await cli('workspace', 'tags', 'add', 'app-dev', 'env=dev');
    expect(add.code).toBe(2);
    expect(add.stderr).toContain('--tag env=dev');
  });
});
