import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

const names = (list: any[]) => list.map((w) => w.attributes.name);

describe('berth workspace (local mode)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  const sql = (statement: string, ...params: unknown[]) => {
    const conn = new Database(db.path);
    try {
      return conn.prepare(statement).run(...params);
    } finally {
      conn.close();
    }
  };

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await berth('org', 'create', 'beta', '--email', 'ops@beta.test')).code).toBe(0);
  });
  afterAll(() => db.cleanup());

  describe('create', () => {
    it('creates with flags and prints the API resource with --json', async () => {
      const ws = await json(
        'workspace',
        'create',
        'app-prod',
        '--org',
        'acme',
        '--description',
        'Production',
        '--auto-apply',
        '--tag',
        'env=prod',
        '--tag',
        'team=core',
        '--engine-version',
        '~> 1.9.0',
        '--trigger-prefix',
        '/modules',
        '--trigger-prefix',
        '/shared',
        '--working-directory',
        'infra',
        '--auto-destroy-duration',
        '14d',
        '--no-speculative',
        '--source-name',
        'cli-test',
      );
      expect(ws).toMatchObject({
        type: 'workspaces',
        id: expect.stringMatching(/^ws-[A-Za-z0-9]{16}$/),
        attributes: {
          name: 'app-prod',
          description: 'Production',
          'auto-apply': true,
          'terraform-version': '~> 1.9.0',
          'trigger-prefixes': ['/modules', '/shared'],
          'working-directory': 'infra',
          'auto-destroy-activity-duration': '14d',
          'speculative-enabled': false,
          'source-name': 'cli-test',
        },
      });
      const shown = await json(
        'workspace',
        'show',
        'acme/app-prod',
        '--include',
        'effective_tag_bindings',
        '--json-document',
      );
      expect(shown.included.map((t: any) => `${t.attributes.key}=${t.attributes.value}`)).toEqual([
        'env=prod',
        'team=core',
      ]);
    });

    it('prints a human summary without --json', async () => {
      const res = await berth('workspace', 'create', 'human', '--org', 'acme');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^Created workspace human \(ws-[A-Za-z0-9]{16}\)\./);
      expect(res.stdout).toMatch(/Execution mode\s+remote \(inherited\)/);
      expect(res.stderr).toBe('');
    });

    it('with a VCS repository from a recorded OAuth token', async () => {
      const token = await json('oauth-token', 'create', '--org', 'acme', '--service-provider', 'gitlab_hosted');
      expect(token.id).toMatch(/^ot-/);
      const ws = await json(
        'workspace',
        'create',
        'vcs-app',
        '--org',
        'acme',
        '--vcs-identifier',
        'acme/app',
        '--vcs-oauth-token',
        token.id,
        '--vcs-branch',
        'main',
      );
      expect(ws.attributes['vcs-repo']).toMatchObject({
        identifier: 'acme/app',
        branch: 'main',
        'oauth-token-id': token.id,
        'service-provider': 'gitlab_hosted',
      });
      const tokens = await json('oauth-token', 'list', '--org', 'acme');
      expect(tokens.map((t: any) => t.id)).toEqual([token.id]);
      const table = await berth('oauth-token', 'list', '--org', 'acme');
      expect(table.stdout).toMatch(/^ID\s+PROVIDER\s+NAME\s+CREATED\not-\S+\s+gitlab_hosted/);
    });

    it('in agent mode with a pool named by name', async () => {
      const pool = await json('agent-pool', 'create', 'builders', '--org', 'acme');
      const ws = await json(
        'workspace',
        'create',
        'runner',
        '--org',
        'acme',
        '--execution-mode',
        'agent',
        '--agent-pool',
        'builders',
      );
      expect(ws.relationships['agent-pool'].data).toEqual({ id: pool.id, type: 'agent-pools' });
    });

    it('without NAME off a terminal, or with --json: usage error (exit 2), nothing created, no prompt', async () => {
      for (const extra of [[], ['--json']]) {
        const res = await berth('workspace', 'create', '--org', 'acme', ...extra);
        expect(res.code).toBe(2);
        expect(res.stderr).toContain('a workspace NAME is required when not on a terminal');
        expect(res.stdout).toBe('');
      }
      expect(names(await json('workspace', 'list', '--org', 'acme'))).toEqual([
        'app-prod',
        'human',
        'vcs-app',
        'runner',
      ]);
    });

    it('rule violations exit 5 with the API message on stderr', async () => {
      const taken = await berth('workspace', 'create', 'app-prod', '--org', 'acme');
      expect(taken.code).toBe(5);
      expect(taken.stderr).toContain('invalid attribute: Name has already been taken (name)');
      const agent = await berth('workspace', 'create', 'no-pool', '--org', 'acme', '--execution-mode', 'agent');
      expect(agent.code).toBe(5);
      expect(agent.stderr).toContain("Agent pool id must be specified when using 'agent' execution mode");
      const version = await berth(
        'workspace',
        'create',
        'bad-version',
        '--org',
        'acme',
        '--engine-version',
        'nonexisting',
      );
      expect(version.code).toBe(5);
      const assess = await berth('workspace', 'create', 'assess', '--org', 'acme', '--assessments');
      expect(assess.code).toBe(5);
      expect(assess.stderr).toContain('only available in the hosted edition');
      expect((await berth('workspace', 'show', 'acme/no-pool')).code).toBe(3);
    });

    it('needs an organization (exit 2)', async () => {
      const res = await berth('workspace', 'create', 'orphan');
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('--org');
    });
  });

  describe('show', () => {
    it('finds a workspace by ws- id, NAME with --org, ORG/NAME, and BERTH_ORG', async () => {
      const byName = await json('workspace', 'show', 'app-prod', '--org', 'acme');
      const byId = await json('workspace', 'show', byName.id);
      const bySlash = await json('workspace', 'show', 'acme/app-prod');
      const byEnv = await runCli(['workspace', 'show', 'app-prod', '--json'], { ...env, BERTH_ORG: 'acme' });
      expect(byId).toEqual(byName);
      expect(bySlash).toEqual(byName);
      expect(JSON.parse(byEnv.stdout)).toEqual(byName);
    });

    it('renders fields for humans, with the project name, asked for or not', async () => {
      const res = await berth('workspace', 'show', 'acme/app-prod', '--include', 'project');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/Project\s+Default Project\n/);
      const plain = await berth('workspace', 'show', 'acme/app-prod');
      expect(plain.stdout).toMatch(/Project\s+Default Project\n/);
      expect(plain.stdout).not.toMatch(/prj-/);
      expect(res.stdout).toMatch(/Auto destroy after\s+14d/);
    });

    it('exits 3 for an unknown workspace, 2 when the organization cannot be told, 5 for a bad include', async () => {
      const missing = await berth('workspace', 'show', 'acme/nope');
      expect(missing.code).toBe(3);
      expect(missing.stderr).toMatch(/^Error: not found/);
      const noOrg = await berth('workspace', 'show', 'app-prod');
      expect(noOrg.code).toBe(2);
      expect(noOrg.stderr).toContain('cannot tell the organization');
      expect((await berth('workspace', 'show', 'acme/app-prod', '--include', 'bogus')).code).toBe(5);
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      for (const name of ['web-1', 'web-2', 'db-1'])
        expect(
          (await berth('workspace', 'create', name, '--org', 'acme', '--tag', `tier=${name.split('-')[0]}`)).code,
        ).toBe(0);
      expect((await berth('workspace', 'create', 'elsewhere', '--org', 'beta')).code).toBe(0);
    });

    it('lists every workspace of the organization in creation order', async () => {
      expect(names(await json('workspace', 'list', '--org', 'acme'))).toEqual([
        'app-prod',
        'human',
        'vcs-app',
        'runner',
        'web-1',
        'web-2',
        'db-1',
      ]);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--all'))).toHaveLength(7);
    });

    it('filters and sorts', async () => {
      expect(names(await json('workspace', 'list', '--org', 'acme', '--search', 'WEB'))).toEqual(['web-1', 'web-2']);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--wildcard', '*-1'))).toEqual(['web-1', 'db-1']);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--tag', 'tier=web'))).toEqual(['web-1', 'web-2']);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--tag', 'tier'))).toEqual([
        'web-1',
        'web-2',
        'db-1',
      ]);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--tag', 'tier', '--tag', 'env=prod'))).toEqual([]);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--sort', '-name', '--search', '-'))).toEqual([
        'web-2',
        'web-1',
        'vcs-app',
        'db-1',
        'app-prod',
      ]);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--tags', 'none'))).toEqual([]);
      expect(
        names(await json('workspace', 'list', '--org', 'acme', '--exclude-tags', 'none', '--search', 'web')),
      ).toEqual(['web-1', 'web-2']);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--run-status', 'applied'))).toEqual([]);
      const project = (await json('workspace', 'show', 'acme/web-1')).relationships.project.data.id;
      expect(names(await json('workspace', 'list', '--org', 'acme', '--project', project, '--search', 'db'))).toEqual([
        'db-1',
      ]);
    });

    it('pages with --page and --page-size', async () => {
      expect(names(await json('workspace', 'list', '--org', 'acme', '--page', '2', '--page-size', '3'))).toEqual([
        'runner',
        'web-1',
        'web-2',
      ]);
    });

    it('prints a table for humans', async () => {
      const res = await berth('workspace', 'list', '--org', 'acme', '--search', 'web');
      expect(res.code).toBe(0);
      const lines = res.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^NAME\s+ID\s+PROJECT\s+EXECUTION\s+VERSION\s+LOCKED\s+RESOURCES$/);
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['web-1', 'web-2']);
      expect((await berth('workspace', 'list', '--org', 'acme', '--search', 'zzz')).stdout).toBe('No workspaces.\n');
    });
  });

  describe('update', () => {
    it('changes only the given settings and renames', async () => {
      const before = await json('workspace', 'show', 'acme/web-1');
      const after = await json(
        'workspace',
        'update',
        'acme/web-1',
        '--name',
        'web-one',
        '--description',
        'renamed',
        '--no-auto-apply',
        '--queue-all-runs',
      );
      expect(after.id).toBe(before.id);
      expect(after.attributes).toMatchObject({
        name: 'web-one',
        description: 'renamed',
        'auto-apply': false,
        'queue-all-runs': true,
        'terraform-version': before.attributes['terraform-version'],
      });
      expect((await berth('workspace', 'show', 'acme/web-1')).code).toBe(3);
    });

    it('replaces and clears tags, returns to inherited settings, removes VCS', async () => {
      const ws = await json(
        'workspace',
        'update',
        'vcs-app',
        '--org',
        'acme',
        '--tag',
        'a=1',
        '--execution-mode',
        'local',
        '--auto-destroy-duration',
        '2h',
      );
      expect(ws.attributes).toMatchObject({
        'execution-mode': 'local',
        'setting-overwrites': { 'execution-mode': true },
        'auto-destroy-activity-duration': '2h',
      });
      const back = await json(
        'workspace',
        'update',
        'vcs-app',
        '--org',
        'acme',
        '--inherit-execution-mode',
        '--inherit-auto-destroy',
        '--no-vcs',
        '--clear-tags',
      );
      expect(back.attributes).toMatchObject({
        'execution-mode': 'remote',
        'setting-overwrites': { 'execution-mode': false },
        'inherits-project-auto-destroy': true,
        'vcs-repo': null,
      });
      const shown = await json(
        'workspace',
        'show',
        'acme/vcs-app',
        '--include',
        'effective_tag_bindings',
        '--json-document',
      );
      expect(shown.included).toEqual([]);
    });

    it('moves to another project by prj- id', async () => {
      const target = (await json('org', 'show', 'acme')).relationships['default-project'].data.id;
      const ws = await json('workspace', 'update', 'acme/human', '--project', target);
      expect(ws.relationships.project.data.id).toBe(target);
    });

    it('exits 2 with nothing to change, 5 on a rule, 3 when unknown', async () => {
      const nothing = await berth('workspace', 'update', 'acme/human');
      expect(nothing.code).toBe(2);
      expect(nothing.stderr).toContain('nothing to change');
      const bad = await berth('workspace', 'update', 'acme/human', '--auto-destroy-duration', '20m');
      expect(bad.code).toBe(5);
      expect(bad.stderr).toContain('Auto destroy activity duration has an incorrect format');
      expect((await berth('workspace', 'update', 'acme/ghost', '--description', 'x')).code).toBe(3);
    });
  });

  describe('delete', () => {
    it('refuses without --yes off a terminal (exit 2) and keeps the workspace', async () => {
      expect((await berth('workspace', 'create', 'doomed', '--org', 'acme')).code).toBe(0);
      const res = await berth('workspace', 'delete', 'acme/doomed');
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('without --yes');
      expect((await berth('workspace', 'show', 'acme/doomed')).code).toBe(0);
    });

    it('safe delete with --yes', async () => {
      const res = await berth('workspace', 'delete', 'acme/doomed', '--yes', '--json');
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ type: 'workspaces', deleted: true, force: false });
      expect((await berth('workspace', 'show', 'acme/doomed')).code).toBe(3);
    });

    it('safe delete of a locked or resource-managing workspace exits 4; --force deletes it', async () => {
      expect((await berth('workspace', 'create', 'busy', '--org', 'acme')).code).toBe(0);
      sql(
        "update workspaces set locked = 1, locked_by_kind = 'users', locked_by_id = 'user-AAAAAAAAAAAAAAAA' where name = 'busy'",
      );
      const locked = await berth('workspace', 'delete', 'busy', '--org', 'acme', '--yes');
      expect(locked.code).toBe(4);
      expect(locked.stderr).toContain('Workspace is currently locked');
      sql("update workspaces set locked = 0, resource_count = 2 where name = 'busy'");
      const managing = await berth('workspace', 'delete', 'busy', '--org', 'acme', '--yes');
      expect(managing.code).toBe(4);
      expect(managing.stderr).toContain('still managing resources');
      const forced = await berth('workspace', 'delete', 'busy', '--org', 'acme', '--yes', '--force');
      expect(forced.code).toBe(0);
      expect(forced.stdout).toMatch(/^Deleted workspace busy \(ws-/);
      expect((await berth('workspace', 'show', 'acme/busy')).code).toBe(3);
    });
  });

  describe('agent-pool', () => {
    it('create, list, delete (refused while used, exit 4)', async () => {
      const pool = await json('agent-pool', 'create', 'spare', '--org', 'acme');
      const list = await json('agent-pool', 'list', '--org', 'acme');
      expect(list.map((p: any) => p.attributes.name)).toEqual(['builders', 'spare']);
      const table = await berth('agent-pool', 'list', '--org', 'acme');
      expect(table.stdout).toMatch(/^NAME\s+ID\s+WORKSPACES\s+CREATED\nbuilders\s+apool-\S+\s+1\s/);
      const used = await berth('agent-pool', 'delete', 'builders', '--org', 'acme', '--yes');
      expect(used.code).toBe(4);
      expect((await berth('agent-pool', 'delete', pool.id)).code).toBe(2);
      const del = await berth('agent-pool', 'delete', pool.id, '--yes');
      expect(del.code).toBe(0);
      expect(del.stdout).toContain(`Deleted agent pool spare (${pool.id})`);
      expect((await json('agent-pool', 'list', '--org', 'acme')).map((p: any) => p.id)).not.toContain(pool.id);
      const dup = await berth('agent-pool', 'create', 'builders', '--org', 'acme');
      expect(dup.code).toBe(5);
    });
  });

  describe('project move-workspaces', () => {
    it('moves workspaces named every way into a project given by prj- id, all or nothing', async () => {
      const conn = new Database(db.path);
      const orgId = (conn.prepare("select id from organizations where name = 'acme'").get() as { id: string }).id;
      conn
        .prepare(
          "insert into projects (id, organization_id, name, name_lower, default_execution_mode, is_default, created_at) values ('prj-MoveTargetAAAAAA', ?, 'Target', 'target', 'remote', 0, ?)",
        )
        .run(orgId, new Date().toISOString());
      conn.close();
      const web2 = await json('workspace', 'show', 'acme/web-2');
      const res = await berth(
        'project',
        'move-workspaces',
        'prj-MoveTargetAAAAAA',
        web2.id,
        'acme/web-one',
        'db-1',
        '--org',
        'acme',
        '--json',
      );
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual({
        project: 'prj-MoveTargetAAAAAA',
        moved: [web2.id, expect.any(String), expect.any(String)],
      });
      expect(names(await json('workspace', 'list', '--org', 'acme', '--project', 'prj-MoveTargetAAAAAA'))).toEqual([
        'web-one',
        'web-2',
        'db-1',
      ]);
      const foreign = (await json('workspace', 'show', 'beta/elsewhere')).id;
      const refused = await berth(
        'project',
        'move-workspaces',
        'prj-MoveTargetAAAAAA',
        'acme/human',
        foreign,
        '--org',
        'acme',
      );
      expect(refused.code).toBe(6);
      expect(refused.stderr).toContain(`Workspace(s) not found, or you are not authorized to move them: ${foreign}`);
      expect(names(await json('workspace', 'list', '--org', 'acme', '--project', 'prj-MoveTargetAAAAAA'))).toEqual([
        'web-one',
        'web-2',
        'db-1',
      ]);
      expect((await berth('project', 'move-workspaces', 'prj-MoveTargetAAAAAA')).code).toBe(2);
    });
  });
});
