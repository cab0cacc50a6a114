import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

describe('berth ssh-key, workspace ssh-key, remote-state, tags, workspace tags and tag-bindings (local mode)', () => {
  const db = tempDb();
  const env = { BERTH_DB: db.path, BERTH_ORG: 'acme' };
  const berth = (...args: string[]) => runCli(args, env);
  const json = jsonOf(berth);
  const query = (statement: string, ...params: unknown[]) => {
    const conn = new Database(db.path, { readonly: true });
    try {
      return conn.prepare(statement).all(...params) as any[];
    } finally {
      conn.close();
    }
  };
  const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-material\n-----END OPENSSH PRIVATE KEY-----\n';
  let keyId: string;

  beforeAll(async () => {
    expect((await berth('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    // Approved consumers only: a self-hosted berth's default is global, as Terraform Enterprise's.
    for (const name of ['network', 'app-a', 'app-b', 'app-c'])
      expect((await berth('workspace', 'create', name, '--no-global-remote-state')).code).toBe(0);
    writeFileSync(join(db.dir, 'id_ed25519'), KEY);
  });
  afterAll(() => db.cleanup());

  describe('ssh-key', () => {
    it('create reads the key from a file and never prints it', async () => {
      const res = await berth('ssh-key', 'create', 'deploy', '--key-file', join(db.dir, 'id_ed25519'));
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('Created SSH key deploy.');
      expect(res.stdout + res.stderr).not.toContain('secret-material');
      keyId = query('select id from ssh_keys')[0].id;
      expect(res.stdout).toContain(keyId);
    });

    it('create reads stdin with --key-file -; an empty key is a usage error', async () => {
      const res = await runCli(['ssh-key', 'create', 'from-stdin', '--key-file', '-', '--json'], env, KEY);
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ type: 'ssh-keys', attributes: { name: 'from-stdin' } });
      expect(query("select value from ssh_keys where name = 'from-stdin'")[0].value).toBe(KEY);
      const empty = await runCli(['ssh-key', 'create', 'empty', '--key-file', '-'], env, '  ');
      expect(empty.code).toBe(2);
      const missing = await berth('ssh-key', 'create', 'missing', '--key-file', join(db.dir, 'no-such-file'));
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('cannot read the key from');
    });

    it('list shows names, never keys', async () => {
      const list = await json('ssh-key', 'list');
      expect(list.map((k: any) => k.attributes.name)).toEqual(['deploy', 'from-stdin']);
      const human = await berth('ssh-key', 'list');
      expect(human.stdout).toMatch(/deploy/);
      expect(human.stdout).not.toContain('secret-material');
    });

    it('workspace ssh-key assign by key name, then unassign', async () => {
      const ws = await json('workspace', 'ssh-key', 'assign', 'network', 'deploy');
      expect(ws.relationships['ssh-key'].data).toEqual({ id: keyId, type: 'ssh-keys' });
      const human = await berth('workspace', 'ssh-key', 'assign', 'acme/network', keyId);
      expect(human.stdout).toContain(`Workspace network now uses SSH key ${keyId}.`);
      const byName = await berth('workspace', 'ssh-key', 'assign', 'acme/network', 'deploy');
      expect(byName.stdout).toBe('Workspace network now uses SSH key deploy.\n');
      const un = await json('workspace', 'ssh-key', 'unassign', 'network');
      expect(un.relationships['ssh-key']).toEqual({ data: null });
      const missing = await berth('workspace', 'ssh-key', 'assign', 'network', 'no-such-key');
      expect(missing.code).toBe(3);
      expect(missing.stderr).toContain('SSH key no-such-key not found');
    });

    it('create refuses a public key, garbage and a taken name (5), storing nothing', async () => {
      const pub = await runCli(
        ['ssh-key', 'create', 'pub', '--key-file', '-'],
        env,
        'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJ1 ops@host\n',
      );
      expect(pub.code).toBe(5);
      expect(pub.stderr).toContain('this is a public key: give the private key');
      const junk = await runCli(['ssh-key', 'create', 'junk', '--key-file', '-'], env, 'hello\n');
      expect(junk.code).toBe(5);
      expect(junk.stderr).toContain('does not look like an SSH private key');
      const taken = await runCli(['ssh-key', 'create', 'DEPLOY', '--key-file', '-'], env, KEY);
      expect(taken.code).toBe(5);
      expect(taken.stderr).toContain('Name has already been taken');
      expect(query("select name from ssh_keys where name in ('pub', 'junk', 'DEPLOY')")).toEqual([]);
    });

    it('delete of a key in use names the workspaces and needs a confirmation (--yes) off a terminal', async () => {
      await json('workspace', 'ssh-key', 'assign', 'network', 'deploy');
      const refused = await berth('ssh-key', 'delete', 'deploy');
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('SSH key deploy is used by 1 workspace: network');
      expect(refused.stderr).toContain('without --yes');
      expect(query('select id from ssh_keys where id = ?', keyId)).toHaveLength(1);
      const res = await berth('ssh-key', 'delete', 'deploy', '--yes');
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(`Deleted SSH key deploy (${keyId}). Unassigned from network.`);
      expect((await json('workspace', 'show', 'network')).relationships['ssh-key']).toEqual({ data: null });
      expect((await json('ssh-key', 'list')).map((k: any) => k.attributes.name)).toEqual(['from-stdin']);
    });
  });

  describe('remote-state', () => {
    const names = (list: any[]) => list.map((w) => w.attributes.name);

    it('add, list, remove and set (by name, ORG/NAME and id)', async () => {
      expect(await json('remote-state', 'list', 'network')).toEqual([]);
      expect(names(await json('remote-state', 'add', 'network', 'app-a', 'acme/app-b'))).toEqual(['app-a', 'app-b']);
      expect(names(await json('remote-state', 'list', 'network'))).toEqual(['app-a', 'app-b']);
      expect(names(await json('remote-state', 'remove', 'network', 'app-a'))).toEqual(['app-b']);
      const c = (await json('workspace', 'show', 'app-c')).id;
      expect(names(await json('remote-state', 'set', 'network', c, 'app-a'))).toEqual(['app-c', 'app-a']);
      const human = await berth('remote-state', 'list', 'network');
      expect(human.stdout).toMatch(/app-c/);
    });

    it('refuses the workspace itself (exit 5 for a 422) and a missing consumer list (usage, exit 2)', async () => {
      const self = await berth('remote-state', 'add', 'network', 'network');
      expect(self.code).toBe(5);
      expect(self.stderr).toContain('cannot be a remote state consumer of itself');
      expect((await berth('remote-state', 'add', 'network')).code).toBe(2);
      const unknown = await berth('remote-state', 'add', 'network', 'nope');
      expect(unknown.code).toBe(3);
    });
  });

  describe('flat tags', () => {
    it('workspace tags add (lower-cased), list, remove; tags list counts workspaces', async () => {
      const added = await json('workspace', 'tags', 'add', 'app-a', 'Prod', 'team:web');
      expect(added.map((t: any) => t.attributes.name)).toEqual(['prod', 'team:web']);
      await json('workspace', 'tags', 'add', 'app-b', 'prod');
      expect((await json('workspace', 'tags', 'list', 'app-a')).map((t: any) => t.attributes.name)).toEqual([
        'prod',
        'team:web',
      ]);
      const org = await json('tags', 'list');
      expect(org.map((t: any) => [t.attributes.name, t.attributes['instance-count']])).toEqual([
        ['prod', 2],
        ['team:web', 1],
      ]);
      expect((await json('tags', 'list', '--search', 'TEAM')).map((t: any) => t.attributes.name)).toEqual(['team:web']);
      const removed = await json('workspace', 'tags', 'remove', 'app-a', 'team:web', 'not-there');
      expect(removed.map((t: any) => t.attributes.name)).toEqual(['prod']);
      expect((await json('tags', 'list')).map((t: any) => t.attributes.name)).toEqual(['prod']);
      const human = await berth('tags', 'list');
      expect(human.stdout).toMatch(/WORKSPACES/);
      expect(human.stdout).toMatch(/prod\s+tag-\S+\s+2/);
    });

    it('an invalid tag name is exit 5 and changes nothing', async () => {
      const res = await berth('workspace', 'tags', 'add', 'app-a', 'ok-tag', 'bad tag');
      expect(res.code).toBe(5);
      expect(res.stderr).toMatch(/Name is invalid/);
      expect((await json('workspace', 'tags', 'list', 'app-a')).map((t: any) => t.attributes.name)).toEqual(['prod']);
    });
  });

  describe('workspace tag-bindings', () => {
    it('add (upsert), list, and effective marking inherited rows with their project', async () => {
      const projectId = (await json('project', 'create', 'Platform', '--tag', 'dept=r+d', '--tag', 'env=staging')).id;
      await json('workspace', 'update', 'app-c', '--project', projectId);
      const all = await json('workspace', 'tag-bindings', 'add', 'app-c', 'env=prod', 'owner');
      expect(all.map((t: any) => [t.attributes.key, t.attributes.value])).toEqual([
        ['env', 'prod'],
        ['owner', ''],
      ]);
      expect((await json('workspace', 'tag-bindings', 'list', 'app-c')).map((t: any) => t.attributes.key)).toEqual([
        'env',
        'owner',
      ]);
      const eff = await json('workspace', 'tag-bindings', 'effective', 'app-c');
      expect(eff.map((t: any) => [t.attributes.key, t.attributes.value, t.links?.['inherited-from'] ?? null])).toEqual([
        ['env', 'prod', null],
        ['owner', '', null],
        ['dept', 'r+d', `/api/v2/projects/${projectId}`],
      ]);
      const human = await berth('workspace', 'tag-bindings', 'effective', 'app-c');
      expect(human.stdout).toMatch(/env\s+prod\s+own/);
      // A person reads the project's name, not its id.
      expect(human.stdout).toMatch(/dept\s+r\+d\s+inherited from Platform/);
      expect(human.stdout).not.toContain(projectId);
    });

    it('the 11th binding is refused (exit 5) and nothing changes', async () => {
      const pairs = Array.from({ length: 9 }, (_, i) => `k${i}=v`);
      const res = await berth('workspace', 'tag-bindings', 'add', 'app-c', ...pairs);
      expect(res.code).toBe(5);
      expect(res.stderr).toContain('cannot exceed 10');
      expect(await json('workspace', 'tag-bindings', 'list', 'app-c')).toHaveLength(2);
      expect((await berth('workspace', 'tag-bindings', 'add', 'app-c')).code).toBe(2);
    });
  });
});
