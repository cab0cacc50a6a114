import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDb } from '../../helpers/cli.js';

describe('CLI conventions: help, aliases, version, extra arguments', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  beforeAll(async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
    await cli('workspace', 'create', 'web');
  });
  afterAll(() => tmp.cleanup());

  it('berth help, berth help TOPIC, help with aliases and -h', async () => {
    const top = await cli('help');
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('TOPICS');
    expect(top.stdout).toContain('workspace');
    const topic = await cli('help', 'workspace');
    expect(topic.stdout).toContain('$ berth workspace COMMAND');
    const command = await cli('help', 'ws', 'ls');
    expect(command.stdout).toContain('$ berth workspace list');
    expect((await cli('workspace', 'list', '-h')).stdout).toContain('$ berth workspace list');
  });

  it('aliases: ws ls, ws rm, proj ls', async () => {
    const r = await cli('ws', 'ls', '--columns', 'name');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['NAME', 'web']);
    expect((await cli('proj', 'ls', '--jq', '.[].attributes.name')).stdout.trim()).toBe('Default Project');
  });

  it('a mistyped command: exit 2 with "did you mean"', async () => {
    const r = await cli('workspace', 'lst');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"workspace lst" is not a berth command. Did you mean "berth workspace list"?');
    expect(r.stdout).toBe('');
  });

  it('extra arguments: exit 2, naming them and what the command takes', async () => {
    const r = await cli('workspace', 'show', 'my', 'workspace');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('too many arguments: "workspace". berth workspace show takes WORKSPACE');
    expect(r.stderr).toContain('quote a value that has spaces');
  });

  it('berth version, --version and version --json', async () => {
    const v = await cli('version');
    expect(v.stdout).toMatch(/^berth\/\d+\.\d+\.\d+ /);
    expect((await cli('--version')).stdout).toBe(v.stdout);
    expect(JSON.parse((await cli('version', '--json')).stdout)).toMatchObject({ version: expect.any(String) });
  });

  it('short flags: -o for --org, -j for --json', async () => {
    const r = await runCli(['workspace', 'list', '-o', 'acme', '-j'], { BERTH_DB: tmp.db });
    expect(JSON.parse(r.stdout).map((w: { attributes: { name: string } }) => w.attributes.name)).toEqual(['web']);
  });
});

describe('output formats', () => {
  const tmp = tempDb();
  const config = join(tmp.dir, 'config.json');
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme', BERTH_CONFIG: config };
  const cli = (...args: string[]) => runCli(args, env);
  beforeAll(async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
    await cli('workspace', 'create', 'web');
    await cli('workspace', 'create', 'db', '--description', 'the, "database"');
    await cli('workspace', 'lock', 'db', '--reason', 'migration');
  });
  afterAll(() => tmp.cleanup());

  it('--jq filters in-process: raw strings, JSON values, nothing for no match', async () => {
    const names = await cli('workspace', 'list', '--jq', '.[] | select(.attributes.locked) | .attributes.name');
    expect(names).toMatchObject({ code: 0, stdout: 'db\n' });
    expect((await cli('workspace', 'list', '--jq', 'length')).stdout).toBe('2\n');
    expect((await cli('workspace', 'list', '--jq', '.[] | select(.attributes.name == "none")')).stdout).toBe('');
  });

  it('--jq is all of jq: interpolation, @tsv, @csv, split, ..', async () => {
    const run = async (filter: string) => {
      const r = await cli('workspace', 'list', '--jq', filter);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      return r.stdout;
    };
    expect(await run('.[] | "\\(.attributes.name) locked=\\(.attributes.locked)"')).toBe(
      'web locked=false\ndb locked=true\n',
    );
    expect(await run('.[] | [.attributes.name, .attributes.locked] | @tsv')).toBe('web\tfalse\ndb\ttrue\n');
    expect(await run('.[] | [.attributes.name, .attributes.description] | @csv')).toBe(
      '"web",\n"db","the, ""database"""\n',
    );
    expect(await run('.[] | .id | split("-") | .[0]')).toBe('ws\nws\n');
    expect(await run('[.. | select(type == "string" and startswith("migr"))] | unique | .[]')).toBe('migration\n');
  });

  it('an invalid --jq is a usage error before anything runs', async () => {
    const r = await cli('workspace', 'create', 'never', '--jq', '.[');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/--jq: syntax error, unexpected end of file at line 1, column 2/);
    const unknown = await cli('workspace', 'create', 'never', '--jq', '.[] | sel(.x)');
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toContain('--jq: sel/1 is not defined');
    expect((await cli('workspace', 'list', '--jq', '.[].attributes.name')).stdout).not.toContain('never');
  });

  it('a --jq that fails on the data is a usage error naming --jq, with nothing on stdout', async () => {
    const r = await cli('workspace', 'list', '--jq', '.[] | .attributes.name | .[]');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain('--jq: Cannot iterate over string ("web")');
  });

  it('--output yaml and csv; csv quotes fields and honours --columns', async () => {
    const yaml = await cli('workspace', 'show', 'web', '--output', 'yaml');
    expect(yaml.stdout).toMatch(/^id: ws-[A-Za-z0-9]{16}\ntype: workspaces\nattributes:\n {2}name: web\n/);
    const csv = await cli('workspace', 'list', '--output', 'csv', '--columns', 'name,locked,description');
    expect(csv.stdout).toBe('name,locked,description\nweb,no,\ndb,yes,"the, ""database"""\n');
    expect((await cli('workspace', 'list', '--json', '--output', 'csv')).code).toBe(2);
  });

  it('config set output json is the default; --output table overrides it per command', async () => {
    expect((await cli('config', 'set', 'output', 'json')).code).toBe(0);
    expect(JSON.parse((await cli('workspace', 'list')).stdout)).toHaveLength(2);
    const table = await cli('workspace', 'list', '--output', 'table', '--columns', 'name');
    expect(table.stdout.trim().split('\n')).toEqual(['NAME', 'web', 'db']);
    expect((await cli('config', 'set', 'output', 'xml')).code).toBe(2);
    expect((await cli('config', 'unset', 'output')).code).toBe(0);
  });

  it('tables show times relative, --json keeps the ISO time; optional columns such as the lock holder', async () => {
    const table = await cli('workspace', 'list', '--columns', 'name,locked-by,locked-at,lock-reason');
    const db = table.stdout.split('\n').find((l) => l.startsWith('db'))!;
    expect(db).toMatch(/^db\s+admin \(user\)\s+(just now|\d+ seconds ago)\s+migration$/);
    const json = JSON.parse((await cli('workspace', 'show', 'db', '--json')).stdout);
    expect(json.attributes['locked-at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await cli('workspace', 'show', 'db')).stdout).toMatch(
      /Created\s+\d{4}-\d\d-\d\dT\S+ \((just now|\d+ seconds ago)\)/,
    );
  });
});

describe('config list sources and profiles', () => {
  const tmp = tempDb();
  const config = join(tmp.dir, 'config.json');
  const env = { BERTH_DB: tmp.db, BERTH_CONFIG: config };
  afterAll(() => tmp.cleanup());

  it('says where each value came from', async () => {
    writeFileSync(config, JSON.stringify({ profiles: { default: { org: 'fromprofile', output: 'table' } } }));
    const fromProfile = JSON.parse((await runCli(['config', 'list', '--json'], env)).stdout);
    expect(fromProfile.sources).toMatchObject({
      profile: 'default',
      organization: 'profile default',
      server: 'default (local mode)',
      output: 'flag --json',
    });
    const fromEnv = JSON.parse((await runCli(['config', 'list', '--json'], { ...env, BERTH_ORG: 'envorg' })).stdout);
    expect(fromEnv.effective.organization).toBe('envorg');
    expect(fromEnv.sources.organization).toBe('environment BERTH_ORG');
    const fromFlag = await runCli(['config', 'list', '-o', 'flagorg'], { ...env, BERTH_ORG: 'envorg' });
    expect(fromFlag.stdout).toMatch(/Organization\s+flagorg {2}\(flag --org\)/);
    expect(fromFlag.stdout).toMatch(/Output\s+table {2}\(profile default\)/);
  });

  it('--profile of a profile that does not exist is an error; config set creates one', async () => {
    const r = await runCli(['workspace', 'list', '--profile', 'nosuch'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no profile "nosuch"');
    expect((await runCli(['config', 'set', 'org', 'x', '--profile', 'nosuch'], env)).code).toBe(0);
    expect((await runCli(['config', 'get', 'org', '--profile', 'nosuch'], env)).stdout).toBe('x\n');
  });
});

describe('berth api', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  beforeAll(async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
  });
  afterAll(() => tmp.cleanup());

  it('GET prints the body; --jq filters it', async () => {
    const r = await cli('api', 'GET', '/organizations/acme');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toMatchObject({ id: 'acme', type: 'organizations' });
    expect((await cli('api', 'get', 'organizations', '--jq', '.data[].id')).stdout).toBe('acme\n');
    const tsv = await cli('api', 'GET', '/organizations', '--jq', '.data[] | [.id, .type] | @tsv');
    expect(tsv).toMatchObject({ code: 0, stdout: 'acme\torganizations\n' });
  });

  it('POST with fields builds the JSON:API body; the change is real and audited', async () => {
    const r = await cli(
      'api',
      'POST',
      '/organizations/acme/workspaces',
      '-f',
      'data[type]=workspaces',
      '-f',
      'data[attributes][name]=from-api',
      '-F',
      'data[attributes][auto-apply]=true',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.attributes).toMatchObject({ name: 'from-api', 'auto-apply': true });
    expect((await cli('workspace', 'list', '--jq', '.[].attributes.name')).stdout).toBe('from-api\n');
    expect((await cli('audit', 'list', '--json')).stdout).toContain('from-api');
  });

  it('--input sends a file; query fields on GET', async () => {
    const body = join(tmp.dir, 'body.json');
    writeFileSync(body, JSON.stringify({ data: { type: 'workspaces', attributes: { description: 'from a file' } } }));
    expect((await cli('api', 'PATCH', '/organizations/acme/workspaces/from-api', '--input', body)).code).toBe(0);
    const r = await cli(
      'api',
      'GET',
      '/organizations/acme/workspaces',
      '-f',
      'search[name]=from',
      '--jq',
      '.data[].attributes.description',
    );
    expect(r.stdout).toBe('from a file\n');
  });

  it('an error status prints the error document and exits by status', async () => {
    const r = await cli('api', 'GET', '/organizations/nope');
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).errors[0].status).toBe('404');
    expect(r.stderr).toContain('HTTP 404');
    const bad = await cli('api', 'POST', '/organizations/acme/workspaces', '-f', 'data[type]=workspaces');
    expect(bad.code).toBe(5);
    expect((await cli('api', 'FETCH', '/organizations')).code).toBe(2);
  });

  it('an error is printed whole whatever --jq says, with its titles and details on stderr', async () => {
    const r = await cli(
      'api',
      'PATCH',
      '/organizations/acme/workspaces/from-api',
      '-f',
      'data[type]=workspaces',
      '-F',
      'data[attributes][auto-apply]=maybe',
      '--jq',
      '.data.attributes.name',
    );
    expect(r.code).toBe(5);
    expect(r.stdout).not.toBe('null\n');
    expect(JSON.parse(r.stdout).errors[0].source.pointer).toBe('/data/attributes/auto-apply');
    expect(r.stderr).toMatch(/HTTP 422: .*Auto-apply must be a boolean \(\/data\/attributes\/auto-apply\)/);
  });

  it("the README's PATCH by name with a typed field works as written", async () => {
    const r = await cli(
      'api',
      'PATCH',
      '/organizations/acme/workspaces/from-api',
      '-f',
      'data[type]=workspaces',
      '-F',
      'data[attributes][auto-apply]=false',
      '--jq',
      '.data.attributes["auto-apply"]',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('false\n');
  });
});

describe('--dry-run', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  beforeAll(async () => {
    await cli('org', 'create', 'acme', '--email', 'a@acme.test');
    await cli('workspace', 'create', 'app-1');
    await cli('workspace', 'create', 'app-2');
    await cli('project', 'create', 'Platform');
  });
  afterAll(() => tmp.cleanup());
  const locked = async () =>
    (await cli('workspace', 'list', '--jq', '[.[] | select(.attributes.locked)] | length')).stdout;

  it('bulk lock previews and changes nothing, without --yes', async () => {
    const r = await cli('workspace', 'lock', '--all-matching', '--search', 'app', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Dry run (nothing changes): Locking 2 workspaces: app-1, app-2');
    expect(r.stdout).toContain('Dry run: 2 would change; nothing was changed.');
    const json = JSON.parse(
      (await cli('workspace', 'lock', '--all-matching', '--search', 'app', '--dry-run', '--json')).stdout,
    );
    expect(json.map((x: { dryRun: boolean }) => x.dryRun)).toEqual([true, true]);
    expect(await locked()).toBe('0\n');
  });

  it('project move-workspaces and org delete change nothing', async () => {
    const move = await cli('project', 'move-workspaces', 'Platform', 'app-1', '--dry-run', '--json');
    expect(JSON.parse(move.stdout)).toMatchObject({ moved: [], 'dry-run': true });
    expect((await cli('project', 'show', 'Platform', '--json')).stdout).not.toContain('app-1');
    const del = await cli('org', 'delete', 'acme', '--dry-run');
    expect(del.code).toBe(0);
    expect(del.stdout).toContain('2 projects, 2 workspaces');
    expect((await cli('org', 'show', 'acme')).code).toBe(0);
  });
});
