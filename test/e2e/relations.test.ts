import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { remoteCli, startServe, type ServeProcess } from '../helpers/serve.js';

describe('workspace relation commands against berth serve (--server)', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  const { remote, json } = remoteCli(() => server, 'acme');

  beforeAll(async () => {
    server = await startServe(tmp.db, ['--prune-interval', '0']);
    expect((await remote('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    // Approved consumers only: a self-hosted berth's default is global, as Terraform Enterprise's.
    for (const name of ['network', 'app'])
      expect((await remote('workspace', 'create', name, '--no-global-remote-state')).code).toBe(0);
  });
  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    tmp.cleanup();
  });

  it('ssh key, consumers, tags, bindings and retention over HTTP; the key never reaches the log', async () => {
    writeFileSync(
      join(tmp.dir, 'key'),
      '-----BEGIN OPENSSH PRIVATE KEY-----\nPRIVATE-KEY-MATERIAL\n-----END OPENSSH PRIVATE KEY-----\n',
    );
    await json('ssh-key', 'create', 'deploy', '--key-file', join(tmp.dir, 'key'));
    expect((await json('workspace', 'ssh-key', 'assign', 'network', 'deploy')).relationships['ssh-key'].data.type).toBe(
      'ssh-keys',
    );
    expect((await json('remote-state', 'add', 'network', 'app')).map((w: any) => w.attributes.name)).toEqual(['app']);
    expect((await json('workspace', 'tags', 'add', 'app', 'Prod')).map((t: any) => t.attributes.name)).toEqual([
      'prod',
    ]);
    expect((await json('tags', 'list')).map((t: any) => t.attributes['instance-count'])).toEqual([1]);
    expect(
      (await json('workspace', 'tag-bindings', 'add', 'app', 'env=prod')).map((t: any) => t.attributes.key),
    ).toEqual(['env']);
    expect((await json('workspace', 'tag-bindings', 'effective', 'app'))[0]).not.toHaveProperty('links');
    expect((await json('org', 'retention', 'set', '--delete-older-than-days', '30')).type).toBe(
      'data-retention-policy-delete-olders',
    );
    expect((await json('workspace', 'retention', 'show', 'app')).relationships.target.data).toEqual({
      id: 'acme',
      type: 'organizations',
    });
    expect(await json('maintenance', 'prune')).toEqual({ workspaces: 2, 'state-versions': 0, runs: 0 });
    expect(server.stderr()).toContain('POST /api/v2/organizations/acme/ssh-keys 201');
    expect(server.stderr()).not.toContain('PRIVATE-KEY-MATERIAL');
  });
});
