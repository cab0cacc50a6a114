import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

/**
 * `berth var list --effective`: the variables a workspace's runs receive after precedence
 * (`/workspaces/:id/all-vars`), each with where its value comes from; sensitive ones masked; a
 * global set that would share a key with another is refused with the API's message (local mode).
 */
describe('berth var list --effective (local mode)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  const SECRET = 'effective-s3cr3t-value';

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await berth('workspace', 'create', 'app-prod')).code).toBe(0);
    const ok = async (...args: string[]) => {
      const res = await berth(...args);
      expect(res.code, res.stderr).toBe(0);
    };
    await ok('var', 'set', 'app-prod', 'region', '--value', 'eu-west-1');
    await ok('varset', 'create', 'defaults', '--global');
    await ok('varset', 'var', 'set', 'defaults', 'region', '--value', 'us-east-1');
    await ok('varset', 'var', 'set', 'defaults', 'size', '--value', 'small');
    await ok('varset', 'create', 'enforced', '--priority');
    await ok('varset', 'apply', 'enforced', '--workspace', 'app-prod');
    await ok('varset', 'var', 'set', 'enforced', 'size', '--value', 'large');
    const secret = await runCli(
      ['varset', 'var', 'set', 'defaults', 'TOKEN', '--env', '--sensitive', '--value-file', '-'],
      env,
      SECRET,
    );
    expect(secret.code, secret.stderr).toBe(0);
  });
  afterAll(() => db.cleanup());

  it('shows one row per key with its value (or "(sensitive)") and its source', async () => {
    const res = await berth('var', 'list', 'app-prod', '--effective');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout + res.stderr).not.toContain(SECRET);
    const rows = res.stdout
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ['KEY', 'VALUE', 'CATEGORY', 'SOURCE'],
      ['region', 'eu-west-1', 'terraform', 'workspace'],
      ['size', 'large', 'terraform', 'variable set enforced (priority)'],
      ['TOKEN', '(sensitive)', 'env', 'variable set defaults'],
    ]);
    // Without --effective: the workspace's own only.
    expect((await json('var', 'list', 'app-prod')).map((v: any) => v.attributes.key)).toEqual(['region']);
  });

  it('--json answers the API resources, sensitive values null', async () => {
    const list = await json('var', 'list', 'app-prod', '--effective');
    expect(list.map((v: any) => [v.attributes.key, v.attributes.value])).toEqual([
      ['region', 'eu-west-1'],
      ['size', 'large'],
      ['TOKEN', null],
    ]);
  });

  it('a second global set with a key the first holds is refused, saying why', async () => {
    expect((await berth('varset', 'create', 'more', '--global')).code).toBe(0);
    const res = await berth('varset', 'var', 'set', 'more', 'size', '--value', 'tiny');
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('the global variable set "defaults" already has a Terraform variable with key "size"');
    expect((await json('varset', 'show', 'more')).relationships.vars.data).toEqual([]);
  });
});
