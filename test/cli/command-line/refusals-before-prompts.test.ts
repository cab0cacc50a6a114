import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { cliJoin } from '../../helpers/cli-members.js';

// What the caller may not do is refused before any confirmation or announcement, with the exit
// code of the API's own answer: 3 for its 404s, 6 for the few refusals it answers 403 (issue 33).
describe('refusals come before prompts, with the exit code of the API answer', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  let bob: (...args: string[]) => ReturnType<typeof runCli>;

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    expect((await cli('project', 'create', 'Web')).code).toBe(0);
    expect((await cli('workspace', 'create', 'app')).code).toBe(0);
    expect((await cli('team', 'create', 'devs')).code).toBe(0);
    expect((await cli('team', 'access', 'devs', '--workspace', 'app', '--level', 'write')).code).toBe(0);
    expect((await cli('team', 'access', 'devs', '--project', 'Web', '--level', 'read')).code).toBe(0);
    await cli('user', 'create', 'bob', '--email', 'bob@acme.test');
    const token = (await cli('token', 'create', '--user', 'bob')).stdout.trim();
    await cliJoin(env, 'acme', 'bob@acme.test', token, ['devs']);
    bob = (...args: string[]) => runCli(args, { ...env, BERTH_TOKEN: token });
  });
  afterAll(() => tmp.cleanup());

  it('workspace delete --force by a writer: exit 6 (the API 403) before asking for --yes or the name', async () => {
    const res = await bob('workspace', 'delete', 'app', '--force');
    expect(res.stderr).not.toContain('--yes');
    expect(res.code).toBe(6);
    expect(res.stderr).toBe('Error: forbidden: not authorized to force delete workspace app\n');
    expect((await bob('workspace', 'delete', 'app', '--force', '--yes')).code).toBe(6);
  });

  it('workspace delete (safe) by a writer: exit 3 (the API 404), before asking', async () => {
    const res = await bob('workspace', 'delete', 'app');
    expect(res.code).toBe(3);
    expect(res.stderr).toBe('Error: not found, or you are not authorized to delete workspace app\n');
    expect((await bob('workspace', 'delete', 'app', '--yes')).code).toBe(3);
    expect((await cli('workspace', 'show', 'app')).code).toBe(0);
  });

  it('project delete by a reader: exit 6, naming the project, before asking', async () => {
    const res = await bob('project', 'delete', 'Web');
    expect(res.code).toBe(6);
    expect(res.stderr).toBe('Error: forbidden: not authorized to delete project Web\n');
  });

  it('team delete by a member who may not manage teams: exit 3, before asking', async () => {
    const res = await bob('team', 'delete', 'devs');
    expect(res.code).toBe(3);
    expect(res.stderr).toBe('Error: not found, or you are not authorized to delete team devs\n');
    expect((await cli('team', 'show', 'devs')).code).toBe(0);
  });
});
