import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

/** `berth agent-pool tokens create|list|delete POOL` and `agent-pool agents POOL`: names, --json. */
describe('agent-pool tokens and agents', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('agent-pool', 'create', 'builders')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('creates a token (shown once), lists it by description and deletes it by description', async () => {
    const made = await cli('agent-pool', 'tokens', 'create', 'builders', '--description', 'rack 4');
    expect(made.code, made.stderr).toBe(0);
    // The bare secret alone on stdout, for T=$(...); the words on stderr.
    expect(made.stdout).toMatch(/^berth\.\S+\n$/);
    expect(made.stderr).toMatch(
      /Created agent token at-\S+ \(rack 4\) of pool builders\. It is shown only this once\./,
    );
    const second = await json('agent-pool', 'tokens', 'create', 'builders', '--description', 'ci');
    expect(second.attributes.token).toMatch(/^berth\./);

    const table = await cli('agent-pool', 'tokens', 'list', 'builders');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^DESCRIPTION\s+ID\s+CREATED\s+LAST USED$/m);
    expect(table.stdout).toMatch(/^rack 4\s+at-\S+\s+.+\s+never$/m);
    const listed = await json('agent-pool', 'tokens', 'list', 'builders');
    expect(listed.map((t: any) => [t.attributes.description, t.attributes.token])).toEqual([
      ['rack 4', null],
      ['ci', null],
    ]);

    const gone = await cli('agent-pool', 'tokens', 'delete', 'builders', 'rack 4', '--yes');
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout).toMatch(/^Deleted agent token rack 4 \(at-\S+\)\.$/m);
    expect((await json('agent-pool', 'tokens', 'list', 'builders')).map((t: any) => t.id)).toEqual([second.id]);
    const missing = await cli('agent-pool', 'tokens', 'delete', 'builders', 'rack 4', '--yes');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('pool builders has no agent token "rack 4"');
  });

  it('needs a description, and a known pool', async () => {
    expect((await cli('agent-pool', 'tokens', 'create', 'builders')).code).toBe(2);
    const unknown = await cli('agent-pool', 'tokens', 'list', 'nope');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('agent pool nope not found');
  });

  it('lists the agents of a pool by name', async () => {
    const none = await cli('agent-pool', 'agents', 'builders');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout.trim()).toBe('No agents in pool builders.');
    expect(await json('agent-pool', 'agents', 'builders')).toEqual([]);
  });

  it('berth agent needs a server and a token', async () => {
    const noServer = await runCli(['agent', '--token', 'x'], {});
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toContain('berth agent needs --server URL');
    const refused = await runCli(['agent', '--server', 'http://127.0.0.1:9', '--token', 'x'], {});
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain('cannot reach http://127.0.0.1:9');
  });
});
