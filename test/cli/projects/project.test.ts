import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import { systemClock } from '../../../src/domain/common/clock.js';
import { DEFAULT_SETTINGS } from '../../../src/services/context.js';
import { createProject } from '../../../src/services/projects/projects.js';
import { openStore } from '../../../src/store/open.js';
import { jsonOf, runCli, runCliInPty } from '../../helpers/cli.js';

const PRJ_ID = /^prj-[A-Za-z0-9]{16}$/;

describe('berth project (local mode)', () => {
  let dir: string;
  let env: Record<string, string>;
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth, { quiet: true });
  const projectNames = async (org = 'acme') =>
    (await json('project', 'list', '--org', org, '--all')).map((p: any) => p.attributes.name);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-cli-project-'));
    env = { BERTH_DB: join(dir, 'berth.db') };
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('create', () => {
    it('creates a project and prints the API resource with --json', async () => {
      const data = await json(
        'project',
        'create',
        'Web Platform',
        '--org',
        'acme',
        '--description',
        'public web',
        '--auto-destroy-duration',
        '14d',
        '--tag',
        'env=prod',
        '--tag',
        'solo',
      );
      expect(data.id).toMatch(PRJ_ID);
      expect(data.type).toBe('projects');
      expect(data.attributes).toMatchObject({
        name: 'Web Platform',
        description: 'public web',
        'auto-destroy-activity-duration': '14d',
        'is-default': false,
      });
      const tags = await json('project', 'tags', 'list', data.id);
      expect(tags.map((t: any) => t.attributes)).toEqual([
        expect.objectContaining({ key: 'env', value: 'prod' }),
        expect.objectContaining({ key: 'solo', value: '' }),
      ]);
    });

    it('prints a summary for humans', async () => {
      const res = await berth('project', 'create', 'Data Lake', '--org', 'acme');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^Created project Data Lake \(prj-[A-Za-z0-9]{16}\)\.\n/);
      expect(res.stdout).toMatch(/Organization\s+acme/);
      expect(res.stderr).toBe('');
    });

    it('asks for the name and the optional settings on a terminal when NAME is missing', async () => {
      const res = await runCliInPty(
        ['project', 'create', '--org', 'acme'],
        [
          { expect: 'Project name', send: 'Asked For\r' },
          { expect: 'Description (optional)', send: 'typed in\r' },
          { expect: 'Auto-destroy after inactivity', send: '7d\r' },
        ],
        env,
      );
      expect(res.output).toContain('Created project Asked For');
      expect(res.code).toBe(0);
      const data = await json('project', 'show', 'Asked For', '--org', 'acme');
      expect(data.attributes).toMatchObject({
        name: 'Asked For',
        description: 'typed in',
        'auto-destroy-activity-duration': '7d',
      });
      expect((await berth('project', 'delete', data.id, '--yes')).code).toBe(0);
    });

    it('fails with a usage error (2) when NAME is missing and no terminal is there to ask', async () => {
      const before = await projectNames();
      const res = await berth('project', 'create', '--org', 'acme');
      expect(res.code).toBe(2);
      expect(res.stderr).toBe('Error: a project name is required: berth project create NAME --org ORG\n');
      expect(res.stdout).toBe('');
      expect(await projectNames()).toEqual(before);
    });

    it('fails with a usage error (2) without an organization', async () => {
      const res = await berth('project', 'create', 'Lost');
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('an organization is required');
    });

    it.each([
      [['x'], 'Error: invalid attribute: Name is too short (minimum is 3 characters) (name)'],
      [['web platform'], 'Error: invalid attribute: Name has already been taken (name)'],
      [
        ['Ok name', '--auto-destroy-duration', '20m'],
        "Error: invalid attribute: Auto destroy activity duration has an incorrect format, we expect up to 4 numeric digits and 1 unit ('d' or 'h') (auto-destroy-activity-duration)",
      ],
      [
        ['Ok name', '--tag', 'hc:owner=me'],
        'Error: invalid attribute: Key is invalid: the prefixes hc: and hcp: are reserved (tag #1 key)',
      ],
    ])('exits 5 on invalid input %j, and creates nothing', async (args, message) => {
      const before = await projectNames();
      const res = await berth('project', 'create', ...args, '--org', 'acme');
      expect(res.code).toBe(5);
      expect(res.stderr).toBe(`${message}\n`);
      expect(await projectNames()).toEqual(before);
    });

    it('exits 5 for an 11th tag', async () => {
      const tags = Array.from({ length: 11 }, (_, i) => ['--tag', `k${i}=v`]).flat();
      const res = await berth('project', 'create', 'Too tagged', '--org', 'acme', ...tags);
      expect(res.code).toBe(5);
      expect(res.stderr).toContain('Tag bindings cannot exceed 10 bindings per resource');
    });

    it('exits 2 for a tag without a key', async () => {
      const res = await berth('project', 'create', 'Bad tag', '--org', 'acme', '--tag', '=value');
      expect(res.code).toBe(2);
      expect(res.stderr).toBe('Error: "=value" is not a tag: use KEY=VALUE\n');
    });
  });

  describe('show', () => {
    it('shows a project by name (case-insensitive) and by id, identically', async () => {
      const byName = await json('project', 'show', 'WEB PLATFORM', '--org', 'acme');
      expect(byName.attributes.name).toBe('Web Platform');
      const byId = await json('project', 'show', byName.id);
      expect(byId).toEqual(byName);
    });

    it('shows fields and tags for humans', async () => {
      const res = await berth('project', 'show', 'Web Platform', '--org', 'acme');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/Name\s+Web Platform/);
      expect(res.stdout).toMatch(/Auto-destroy after\s+14d/);
      expect(res.stdout).toMatch(/Tags\s+env=prod, solo/);
    });

    it('exits 3 for an unknown name or id', async () => {
      const byName = await berth('project', 'show', 'Nope', '--org', 'acme');
      expect(byName.code).toBe(3);
      expect(byName.stderr).toBe(
        'Error: not found, or you are not allowed to access it: project "Nope" not found in organization acme\n',
      );
      const byId = await berth('project', 'show', 'prj-0000000000000000');
      expect(byId.code).toBe(3);
      expect(byId.stderr).toBe(
        'Error: not found, or you are not allowed to access it: project prj-0000000000000000 not found\n',
      );
    });

    it('exits 2 for a name without --org', async () => {
      const res = await berth('project', 'show', 'Web Platform');
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('is not a project id');
    });
  });

  describe('update', () => {
    it('changes the given settings', async () => {
      const data = await json(
        'project',
        'update',
        'Data Lake',
        '--org',
        'acme',
        '--description',
        'lake',
        '--auto-destroy-duration',
        '36h',
        '--tag',
        'a=1',
        '--tag',
        'b=2',
      );
      expect(data.attributes).toMatchObject({
        name: 'Data Lake',
        description: 'lake',
        'auto-destroy-activity-duration': '36h',
      });
      expect((await json('project', 'tags', 'list', data.id)).map((t: any) => t.attributes.key)).toEqual(['a', 'b']);
    });

    it('renames, clears the duration and the tags', async () => {
      const data = await json(
        'project',
        'update',
        'data lake',
        '--org',
        'acme',
        '--name',
        'Lakehouse',
        '--no-auto-destroy',
        '--clear-tags',
      );
      expect(data.attributes).toMatchObject({ name: 'Lakehouse', 'auto-destroy-activity-duration': null });
      expect(await json('project', 'tags', 'list', data.id)).toEqual([]);
    });

    it('exits 2 when nothing is to change', async () => {
      const res = await berth('project', 'update', 'Lakehouse', '--org', 'acme');
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('nothing to change');
    });

    it('exits 5 on an invalid value and changes nothing', async () => {
      const before = await json('project', 'show', 'Lakehouse', '--org', 'acme');
      const res = await berth('project', 'update', 'Lakehouse', '--org', 'acme', '--name', 'Web Platform');
      expect(res.code).toBe(5);
      expect(res.stderr).toBe('Error: invalid attribute: Name has already been taken (name)\n');
      expect(await json('project', 'show', before.id)).toEqual(before);
    });

    it('exits 3 for an unknown project', async () => {
      expect((await berth('project', 'update', 'Ghost', '--org', 'acme', '--description', 'x')).code).toBe(3);
    });
  });

  describe('list', () => {
    beforeAll(async () => {
      await json('project', 'create', 'alpha', '--org', 'acme', '--tag', 'env=prod', '--tag', 'team=web');
      await json('project', 'create', 'Beta', '--org', 'acme', '--tag', 'env=dev');
    });

    it('lists in creation order (the Default Project last), as a table and as JSON', async () => {
      const res = await berth('project', 'list', '--org', 'acme');
      expect(res.code).toBe(0);
      const lines = res.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^ID\s+NAME\s+WORKSPACES\s+AUTO-DESTROY\s+DESCRIPTION$/);
      expect(lines.slice(1).map((l) => l.split(/\s{2,}/)[1])).toEqual([
        'Web Platform',
        'Lakehouse',
        'alpha',
        'Beta',
        'Default Project',
      ]);
      expect(await projectNames()).toEqual(['Web Platform', 'Lakehouse', 'alpha', 'Beta', 'Default Project']);
    });

    it('sorts by name', async () => {
      const names = (await json('project', 'list', '--org', 'acme', '--sort', 'name')).map(
        (p: any) => p.attributes.name,
      );
      expect(names).toEqual(['alpha', 'Beta', 'Default Project', 'Lakehouse', 'Web Platform']);
      const reversed = (await json('project', 'list', '--org', 'acme', '--sort=-name')).map(
        (p: any) => p.attributes.name,
      );
      expect(reversed).toEqual([...names].reverse());
    });

    it('filters by --search, --names, --tag and --can', async () => {
      const names = async (...args: string[]) =>
        (await json('project', 'list', '--org', 'acme', ...args)).map((p: any) => p.attributes.name);
      expect(await names('--search', 'A')).toEqual(['Web Platform', 'Lakehouse', 'alpha', 'Beta', 'Default Project']);
      expect(await names('--search', 'web')).toEqual(['Web Platform']);
      expect(await names('--names', 'BETA,alpha')).toEqual(['alpha', 'Beta']);
      expect(await names('--tag', 'env')).toEqual(['Web Platform', 'alpha', 'Beta']);
      expect(await names('--tag', 'env=prod', '--tag', 'team')).toEqual(['alpha']);
      expect(await names('--can', 'update', '--search', 'beta')).toEqual(['Beta']);
    });

    it('pages with --page/--page-size and notes the other pages on stderr', async () => {
      const res = await berth('project', 'list', '--org', 'acme', '--page', '2', '--page-size', '2');
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('alpha');
      expect(res.stdout).toContain('Beta');
      expect(res.stdout).not.toContain('Lakehouse');
      expect(res.stderr).toBe('Page 2 of 3 (5 items); use --page N, or leave out --page/--page-size for all.\n');
    });

    it('lists every project by default (and with --all), the first N with --limit', async () => {
      const store = await openStore(env.BERTH_DB);
      const ctx = { db: store.db, actor: LOCAL_SITE_ADMIN, clock: systemClock, settings: DEFAULT_SETTINGS };
      for (let i = 0; i < 20; i++) await createProject(ctx, 'acme', { name: `bulk ${String(i).padStart(2, '0')}` });
      await store.close();
      expect(await json('project', 'list', '--org', 'acme')).toHaveLength(25);
      expect(await json('project', 'list', '--org', 'acme', '--all')).toHaveLength(25);
      expect(await json('project', 'list', '--org', 'acme', '--limit', '3')).toHaveLength(3);
    });

    it('rejects --all together with --page (2)', async () => {
      expect((await berth('project', 'list', '--org', 'acme', '--all', '--page', '2')).code).toBe(2);
    });

    it('exits 3 for an unknown organization', async () => {
      const res = await berth('project', 'list', '--org', 'nope');
      expect(res.code).toBe(3);
      expect(res.stderr).toBe('Error: not found, or you are not allowed to access it: organization nope not found\n');
    });
  });

  describe('delete', () => {
    it('refuses without --yes when not on a terminal (2) and deletes nothing', async () => {
      const res = await berth('project', 'delete', 'Beta', '--org', 'acme');
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(
        /^Error: refusing to delete project Beta \(prj-[A-Za-z0-9]{16}\) without --yes when not on a terminal\n$/,
      );
      expect(await projectNames()).toContain('Beta');
    });

    it('deletes with --yes', async () => {
      const beta = await json('project', 'show', 'Beta', '--org', 'acme');
      expect(await json('project', 'delete', 'beta', '--org', 'acme', '--yes')).toEqual({
        id: beta.id,
        type: 'projects',
        deleted: true,
      });
      expect(await projectNames()).not.toContain('Beta');
      const human = await berth('project', 'delete', 'alpha', '--org', 'acme', '-y');
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^Deleted project alpha \(prj-[A-Za-z0-9]{16}\)\.\n$/);
    });

    it('exits 4 for the default project', async () => {
      const res = await berth('project', 'delete', 'Default Project', '--org', 'acme', '--yes');
      expect(res.code).toBe(4);
      expect(res.stderr).toBe('Error: conflict: The default project of an organization cannot be deleted\n');
      expect(await projectNames()).toContain('Default Project');
    });

    it('exits 3 for an unknown project', async () => {
      expect((await berth('project', 'delete', 'prj-0000000000000000', '--yes')).code).toBe(3);
    });
  });
});
