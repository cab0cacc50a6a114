import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';

// `workspace show` shows what a workspace is tied to (SSH key, remote state consumers, key-value
// tags) without --include, by name; `team show` shows the access it promises (issue 33).
describe('workspace show and team show show their relations by name', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const ok = async (...args: string[]) => {
    const res = await cli(...args);
    expect(res.code, res.stderr).toBe(0);
    return res;
  };

  beforeAll(async () => {
    await ok('org', 'create', 'acme', '--email', 'a@acme.test');
    // Approved consumers only: a self-hosted berth's default is global, as Terraform Enterprise's.
    for (const ws of ['network', 'app-a', 'app-b']) await ok('workspace', 'create', ws, '--no-global-remote-state');
    await runCli(
      ['ssh-key', 'create', 'deploy', '--key-file', '-'],
      env,
      '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-material\n-----END OPENSSH PRIVATE KEY-----\n',
    ).then((r) => expect(r.code, r.stderr).toBe(0));
    await ok('workspace', 'ssh-key', 'assign', 'network', 'deploy');
    await ok('remote-state', 'add', 'network', 'app-a', 'app-b');
    await ok('workspace', 'update', 'network', '--tag', 'owner=alice');
    await ok('workspace', 'tags', 'add', 'network', 'core');
    await ok('team', 'create', 'devs');
    await ok('project', 'create', 'Web');
    await ok('team', 'access', 'devs', '--workspace', 'network', '--level', 'write');
    await ok('team', 'access', 'devs', '--project', 'Web', '--level', 'maintain');
  });
  afterAll(() => tmp.cleanup());

  it('workspace show: SSH key, remote state consumers and key-value tags, by name, without --include', async () => {
    const { stdout } = await ok('workspace', 'show', 'network');
    expect(stdout).toMatch(/\nSSH key\s+deploy\n/);
    expect(stdout).toMatch(/\nRemote state consumers\s+app-a, app-b\n/);
    expect(stdout).toMatch(/\nTags\s+owner=alice\n/);
    expect(stdout).toMatch(/\nFlat tags\s+core\n/);
    expect(stdout).not.toContain('sshkey-');
    const other = await ok('workspace', 'show', 'app-a');
    expect(other.stdout).toMatch(/\nSSH key\s+-\n/);
    expect(other.stdout).toMatch(/\nTags\s+-\n/);
    // --json is the API's resource, unchanged.
    const json = JSON.parse((await ok('workspace', 'show', 'network', '--json')).stdout);
    expect(json.relationships['ssh-key'].data.id).toMatch(/^sshkey-/);
  });

  it('workspace update prints the key-value tag it set', async () => {
    const { stdout } = await ok('workspace', 'update', 'app-b', '--tag', 'owner=bob');
    expect(stdout).toMatch(/\nTags\s+owner=bob\n/);
  });

  it('team show: its project and workspace access, by name', async () => {
    const { stdout } = await ok('team', 'show', 'devs');
    expect(stdout).toMatch(/\nProject access\s+Web: maintain\n/);
    expect(stdout).toMatch(/\nWorkspace access\s+network: write\n/);
    expect(stdout).not.toMatch(/prj-|tws-|ws-/);
  });
});
