import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

// `--tag` adds or updates and never removes; removal is explicit and says what it removed.
describe('changing key-value tags from the CLI', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli, { quiet: true });
  const pairs = (tags: { attributes: { key: string; value: string } }[]) =>
    tags.map((t) => `${t.attributes.key}=${t.attributes.value}`);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('project', 'create', 'Web', '--tag', 'env=dev', '--tag', 'owner=ann')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app', '--tag', 'env=dev', '--tag', 'team=web')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  describe('workspace', () => {
    it('update --tag adds or updates only: the other tags stay', async () => {
      await json('workspace', 'update', 'app', '--tag', 'env=prod', '--tag', 'tier=1');
      expect(pairs(await json('workspace', 'tag-bindings', 'list', 'app'))).toEqual(['env=prod', 'team=web', 'tier=1']);
    });

    it('update --remove-tag removes only that key, with other settings in the same request', async () => {
      const ws = await json('workspace', 'update', 'app', '--remove-tag', 'tier', '--description', 'the app');
      expect(ws.attributes.description).toBe('the app');
      expect(pairs(await json('workspace', 'tag-bindings', 'list', 'app'))).toEqual(['env=prod', 'team=web']);
    });

    it('update --remove-tag of a key the workspace does not have exits 3 and changes nothing', async () => {
      const res = await cli('workspace', 'update', 'app', '--remove-tag', 'nope', '--description', 'changed');
      expect(res.code).toBe(3);
      expect(res.stderr).toContain('has no tag nope of its own (its tags: env, team)');
      expect((await json('workspace', 'show', 'app')).attributes.description).toBe('the app');
    });

    it('tag-bindings remove WS KEY... removes those keys and prints what it keeps', async () => {
      await json('workspace', 'tag-bindings', 'add', 'app', 'a=1', 'b=2');
      const res = await cli('workspace', 'tag-bindings', 'remove', 'app', 'a', 'b');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/^Removed a=1, b=2\.\nKeeps:\nKEY\s+VALUE/);
      expect(pairs(await json('workspace', 'tag-bindings', 'list', 'app'))).toEqual(['env=prod', 'team=web']);
      const kept = await json('workspace', 'tag-bindings', 'remove', 'acme/app', 'team');
      expect(pairs(kept)).toEqual(['env=prod']);
      expect((await cli('workspace', 'tag-bindings', 'remove', 'app', 'team')).code).toBe(3);
      expect((await cli('workspace', 'tag-bindings', 'remove', 'app')).code).toBe(2);
    });

    it('update --clear-tags says which tags it cleared', async () => {
      await json('workspace', 'tag-bindings', 'add', 'app', 'x=9');
      const res = await cli('workspace', 'update', 'app', '--clear-tags');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('Removed tags: env=prod, x=9.');
      expect(await json('workspace', 'tag-bindings', 'list', 'app')).toEqual([]);
      const again = await cli('workspace', 'update', 'app', '--clear-tags');
      expect(again.stdout).toContain('It had no tags of its own to clear.');
      expect((await cli('workspace', 'update', 'app', '--clear-tags', '--tag', 'a=1')).code).toBe(2);
    });
  });

  describe('project', () => {
    it('update --tag adds or updates only', async () => {
      await json('project', 'update', 'Web', '--tag', 'env=prod', '--tag', 'tier=1');
      expect(pairs(await json('project', 'tags', 'list', 'Web'))).toEqual(['env=prod', 'owner=ann', 'tier=1']);
    });

    it('update --remove-tag removes only that key', async () => {
      await json('project', 'update', 'Web', '--remove-tag', 'owner');
      expect(pairs(await json('project', 'tags', 'list', 'Web'))).toEqual(['env=prod', 'tier=1']);
    });

    it('tags remove PROJECT KEY... removes those keys; an unknown key exits 3 and changes nothing', async () => {
      const bad = await cli('project', 'tags', 'remove', 'Web', 'tier', 'nope');
      expect(bad.code).toBe(3);
      expect(pairs(await json('project', 'tags', 'list', 'Web'))).toEqual(['env=prod', 'tier=1']);
      const res = await cli('project', 'tags', 'remove', 'Web', 'tier');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('Removed tier=1 from project Web.');
      expect(pairs(await json('project', 'tags', 'list', 'Web'))).toEqual(['env=prod']);
    });

    it('update --clear-tags says which tags it cleared', async () => {
      const res = await cli('project', 'update', 'Web', '--clear-tags');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('Removed tags: env=prod.');
      expect(await json('project', 'tags', 'list', 'Web')).toEqual([]);
    });
  });
});
