import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInPty, tempDb } from '../../helpers/cli.js';

describe('output modes', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
    await cli('workspace', 'create', 'web');
    await cli('workspace', 'create', 'db');
    await cli('workspace', 'lock', 'db');
  });
  afterAll(() => tmp.cleanup());

  it('--columns picks and orders the columns of a table (case and separators do not matter)', async () => {
    const r = await cli('workspace', 'list', '--columns', 'Locked,name');
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)),
    ).toEqual([
      ['LOCKED', 'NAME'],
      ['no', 'web'],
      ['yes', 'db'],
    ]);
  });

  it('an unknown column is a usage error that lists the columns there are', async () => {
    const r = await cli('workspace', 'list', '--columns', 'name,colour');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown column "colour"');
    expect(r.stderr).toContain('locked');
    expect(r.stdout).toBe('');
  });

  it('--json ignores --columns and prints the API resources', async () => {
    const r = await cli('workspace', 'list', '--json', '--columns', 'name');
    expect(JSON.parse(r.stdout).map((w: any) => w.type)).toEqual(['workspaces', 'workspaces']);
  });

  it('the profile can make JSON the default output', async () => {
    const home = tempDb();
    const config = `${home.dir}/config.json`;
    expect((await runCli(['config', 'set', 'output', 'json'], { ...env, BERTH_CONFIG: config })).code).toBe(0);
    const r = await runCli(['workspace', 'list'], { ...env, BERTH_CONFIG: config });
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    home.cleanup();
  });
});

describe('names that are not found', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  beforeAll(async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
    await cli('project', 'create', 'Platform');
    for (const n of ['app-prod', 'app-stage', 'billing']) await cli('workspace', 'create', n);
  });
  afterAll(() => tmp.cleanup());

  it('list the close matches (exit 3)', async () => {
    const ws = await cli('workspace', 'show', 'app-prd');
    expect(ws.code).toBe(3);
    expect(ws.stderr).toContain('workspace "app-prd" not found in organization acme; did you mean "app-prod"');
    const lock = await cli('workspace', 'lock', 'acme/ap-stage');
    expect(lock.stderr).toContain('did you mean "app-stage"');
    const project = await cli('project', 'show', 'Platfrom');
    expect(project.stderr).toContain('did you mean "Platform"');
    const none = await cli('workspace', 'show', 'zzz');
    expect(none.stderr).not.toContain('did you mean');
  });
});

describe('listing every page on a terminal', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  afterAll(() => tmp.cleanup());

  it('shows progress on stderr while it fetches, then clears it', async () => {
    await runCli(['org', 'create', 'acme', '--email', 'a@acme.test'], env);
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(tmp.db);
    const org = db.prepare("select id from organizations where name = 'acme'").get() as { id: string };
    const project = db.prepare('select id from projects where organization_id = ? and is_default = 1').get(org.id) as {
      id: string;
    };
    const now = new Date().toISOString();
    const insert = db.prepare(
      "insert into workspaces (id, organization_id, project_id, name, name_lower, terraform_version, latest_change_at, created_at, updated_at) values (?, ?, ?, ?, ?, '1.13.3', ?, ?, ?)",
    );
    db.transaction(() => {
      for (let i = 0; i < 150; i++)
        insert.run(`ws-Seed${String(i).padStart(12, '0')}`, org.id, project.id, `w${i}`, `w${i}`, now, now, now);
    })();
    db.close();
    const r = await runCliInPty(['workspace', 'list', '--columns', 'name'], [], env);
    expect(r.code).toBe(0);
    expect(r.output).toContain('Fetching 100/150');
    expect(r.output).toContain('w149');
    const piped = await runCli(['workspace', 'list', '--columns', 'name'], env);
    expect(piped.stderr).toBe('');
    expect(piped.stdout.trim().split('\n')).toHaveLength(151);
  });
});

describe('force delete on a terminal', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  afterAll(() => tmp.cleanup());

  it('asks for the name to be typed back, and deletes only when it matches', async () => {
    await runCli(['org', 'create', 'acme', '--email', 'a@acme.test'], env);
    await runCli(['workspace', 'create', 'doomed'], env);
    const wrong = await runCliInPty(
      ['workspace', 'delete', 'doomed', '--force'],
      [{ expect: 'Type the name (doomed)', send: 'dommed\r' }],
      env,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.output).toContain('aborted');
    expect((await runCli(['workspace', 'show', 'doomed'], env)).code).toBe(0);
    const right = await runCliInPty(
      ['workspace', 'delete', 'doomed', '--force'],
      [{ expect: 'Type the name (doomed)', send: 'doomed\r' }],
      env,
    );
    expect(right.code).toBe(0);
    expect((await runCli(['workspace', 'show', 'doomed'], env)).code).toBe(3);
  });
});
