import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli } from '../../helpers/cli.js';

describe('berth project tags (local mode)', () => {
  let dir: string;
  let env: Record<string, string>;
  let id: string;
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth, { quiet: true });
  const pairs = (tags: any[]) => tags.map((t) => `${t.attributes.key}=${t.attributes.value}`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-cli-tags-'));
    env = { BERTH_DB: join(dir, 'berth.db'), BERTH_ORG: 'acme' };
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    id = (await json('project', 'create', 'Web', '--tag', 'env=dev')).id;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('tags list prints the tag-bindings resources with --json', async () => {
    const tags = await json('project', 'tags', 'list', 'Web');
    expect(tags).toEqual([
      {
        id: expect.stringMatching(/^tb-[A-Za-z0-9]{16}$/),
        type: 'tag-bindings',
        attributes: { key: 'env', value: 'dev', 'created-at': expect.any(String) },
      },
    ]);
  });

  it('tags add adds and updates by key, never removes, and prints every tag', async () => {
    const all = await json('project', 'tags', 'add', 'web', 'env=prod', 'team=web', 'solo');
    expect(pairs(all)).toEqual(['env=prod', 'team=web', 'solo=']);
    expect(pairs(await json('project', 'tags', 'list', id))).toEqual(['env=prod', 'team=web', 'solo=']);
  });

  it('tags add prints a table for humans', async () => {
    const res = await berth('project', 'tags', 'add', id, 'tier=1');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Added or updated on project Web:\nKEY\s+VALUE\s+CREATED\n/);
    expect(res.stdout).toMatch(/\ntier\s+1\s+/);
  });

  it('tags list prints a table for humans', async () => {
    const res = await berth('project', 'tags', 'list', 'Web');
    expect(res.code).toBe(0);
    expect(
      res.stdout.split('\n').map((l) =>
        l
          .split(/\s{2,}/)
          .slice(0, 2)
          .join('='),
      ),
    ).toEqual(['KEY=VALUE', 'env=prod', 'team=web', 'solo=-', 'tier=1', '']);
  });

  it('tags effective lists the same set as effective-tag-bindings', async () => {
    const effective = await json('project', 'tags', 'effective', 'Web');
    expect(effective.map((t: any) => t.type)).toEqual(Array(4).fill('effective-tag-bindings'));
    expect(effective.map((t: any) => `${t.attributes.key}=${t.attributes.value}`)).toEqual([
      'env=prod',
      'team=web',
      'solo=',
      'tier=1',
    ]);
    const human = await berth('project', 'tags', 'effective', 'Web');
    expect(human.stdout.split('\n')[0]).toMatch(/^KEY\s+VALUE\s+INHERITED FROM$/);
  });

  it('tags add exits 5 when the merge would exceed 10 tags, changing nothing', async () => {
    const extra = Array.from({ length: 7 }, (_, i) => `k${i}=v`);
    const res = await berth('project', 'tags', 'add', 'Web', ...extra);
    expect(res.code).toBe(5);
    expect(res.stderr).toBe('Error: invalid attribute: Tag bindings cannot exceed 10 bindings per resource\n');
    expect(await json('project', 'tags', 'list', 'Web')).toHaveLength(4);
    expect(await json('project', 'tags', 'add', 'Web', ...extra.slice(0, 6))).toHaveLength(6);
    expect(await json('project', 'tags', 'list', 'Web')).toHaveLength(10);
  });

  it('tags add exits 5 for a reserved key', async () => {
    const res = await berth('project', 'tags', 'add', 'Web', 'hcp:x=1');
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('Key is invalid: the prefixes hc: and hcp: are reserved');
  });

  it('tags add exits 2 without tags', async () => {
    const res = await berth('project', 'tags', 'add', 'Web');
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('Error: give at least one tag: berth project tags add PROJECT KEY=VALUE ...\n');
  });

  it('exits 3 for an unknown project on each tags command', async () => {
    for (const args of [
      ['list', 'Nope'],
      ['effective', 'Nope'],
      ['add', 'Nope', 'a=b'],
    ]) {
      const res = await berth('project', 'tags', ...args);
      expect(res.code).toBe(3);
      expect(res.stderr).toBe(
        'Error: not found, or you are not allowed to access it: project "Nope" not found in organization acme\n',
      );
    }
  });
});
