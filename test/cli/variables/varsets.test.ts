import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

/** `berth varset`: variable sets by name, applied to workspaces and projects, values never printed (local mode). */
describe('berth varset (local mode)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  const SECRET = 'aws-s3cr3t-key-value';

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await berth('project', 'create', 'Platform')).code).toBe(0);
    for (const name of ['app-prod', 'app-dev']) expect((await berth('workspace', 'create', name)).code).toBe(0);
  });
  afterAll(() => db.cleanup());

  it('create makes a set; a taken name is refused', async () => {
    const res = await berth('varset', 'create', 'aws-creds', '--description', 'AWS credentials');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Created variable set aws-creds.');
    const global = await json('varset', 'create', 'defaults', '--global');
    expect(global.attributes).toMatchObject({ name: 'defaults', global: true, priority: false });
    const again = await berth('varset', 'create', 'aws-creds');
    expect(again.code).not.toBe(0);
    expect((await json('varset', 'list')).map((s: any) => s.attributes.name).sort()).toEqual(['aws-creds', 'defaults']);
  });

  it('var set puts a sensitive value read from stdin, never printed; var list masks it', async () => {
    const res = await runCli(
      ['varset', 'var', 'set', 'aws-creds', 'AWS_SECRET_ACCESS_KEY', '--env', '--sensitive', '--value-file', '-'],
      env,
      SECRET,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(
      'Created environment variable AWS_SECRET_ACCESS_KEY in variable set aws-creds (sensitive).',
    );
    expect(res.stdout + res.stderr).not.toContain(SECRET);
    expect((await berth('varset', 'var', 'set', 'aws-creds', 'region', '--value', 'eu-west-1')).code).toBe(0);
    const list = await berth('varset', 'var', 'list', 'aws-creds');
    expect(list.stdout).toMatch(/AWS_SECRET_ACCESS_KEY\s+\(sensitive\)/);
    expect(list.stdout).toMatch(/region\s+eu-west-1/);
    const shown = await berth('varset', 'show', 'aws-creds');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('AWS credentials');
    expect(shown.stdout + (await berth('varset', 'show', 'aws-creds', '--json')).stdout).not.toContain(SECRET);
  });

  it('apply to workspaces and a project by name, list by workspace and project, remove', async () => {
    const dry = await berth('varset', 'apply', 'aws-creds', '--workspace', 'app-prod', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Dry run');
    expect((await json('varset', 'list', '--workspace', 'app-prod')).map((s: any) => s.attributes.name)).toEqual([
      'defaults',
    ]);
    const applied = await berth('varset', 'apply', 'aws-creds', '--workspace', 'app-prod', '--project', 'Platform');
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applied variable set aws-creds to workspace app-prod, project Platform.');
    expect((await json('varset', 'list', '--workspace', 'app-prod')).map((s: any) => s.attributes.name).sort()).toEqual(
      ['aws-creds', 'defaults'],
    );
    // A global set reaches the project's workspaces too.
    expect((await json('varset', 'list', '--project', 'Platform')).map((s: any) => s.attributes.name).sort()).toEqual([
      'aws-creds',
      'defaults',
    ]);
    const removed = await berth('varset', 'remove', 'aws-creds', '--workspace', 'app-prod');
    expect(removed.code, removed.stderr).toBe(0);
    expect((await json('varset', 'list', '--workspace', 'app-prod')).map((s: any) => s.attributes.name)).toEqual([
      'defaults',
    ]);
    const none = await berth('varset', 'apply', 'aws-creds');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--workspace or --project');
    const unknown = await berth('varset', 'apply', 'aws-creds', '--workspace', 'nope');
    expect(unknown.code).toBe(3);
  });

  it('update changes scope and priority; var unset and delete', async () => {
    const up = await json('varset', 'update', 'defaults', '--no-global', '--priority');
    expect(up.attributes).toMatchObject({ global: false, priority: true });
    const nothing = await berth('varset', 'update', 'defaults');
    expect(nothing.code).toBe(2);
    const unset = await berth('varset', 'var', 'unset', 'aws-creds', 'region');
    expect(unset.code, unset.stderr).toBe(0);
    expect((await json('varset', 'var', 'list', 'aws-creds')).map((v: any) => v.attributes.key)).toEqual([
      'AWS_SECRET_ACCESS_KEY',
    ]);
    const refused = await berth('varset', 'delete', 'aws-creds');
    expect(refused.code).toBe(2);
    const gone = await berth('varset', 'delete', 'aws-creds', '--yes');
    expect(gone.code, gone.stderr).toBe(0);
    expect((await json('varset', 'list')).map((s: any) => s.attributes.name)).toEqual(['defaults']);
    const missing = await berth('varset', 'show', 'aws-creds');
    expect(missing.code).toBe(3);
  });
});
