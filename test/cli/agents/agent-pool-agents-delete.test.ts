import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAgentToken, pingAgent, registerAgent } from '../../../src/services/agents/agent-protocol.js';
import { openStore } from '../../../src/store/open.js';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';

/** `berth agent-pool agents delete POOL AGENT`: by name or id, --json, refused while the agent runs. */
describe('agent-pool agents delete', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('agent-pool', 'create', 'builders')).code).toBe(0);
    const token = (await json('agent-pool', 'tokens', 'create', 'builders', '--description', 'rack')).attributes.token;
    // Agents register over the agent protocol; here its service, on the same database.
    const store = await openStore(tmp.db);
    try {
      const now = new Date();
      const cred = await authenticateAgentToken(store.db, token, now);
      for (const name of ['running', 'stopped', 'twin', 'twin']) {
        const agent = await registerAgent(store.db, cred, name, null, now);
        if (name !== 'running') await pingAgent(store.db, cred, agent.id, 'exited', undefined, now);
        ids[name === 'twin' && ids.twin ? 'twin2' : name] = agent.id;
      }
    } finally {
      await store.close();
    }
  });
  afterAll(() => tmp.cleanup());

  it('deletes a stopped agent by name, and another by id with --json; an ambiguous name needs the id', async () => {
    const ambiguous = await cli('agent-pool', 'agents', 'delete', 'builders', 'twin', '--yes');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(`2 agents of pool builders are named "twin": give the id (${ids.twin} exited`);
    const gone = await cli('agent-pool', 'agents', 'delete', 'builders', 'stopped', '--yes');
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.stdout.trim()).toBe(`Deleted agent stopped (${ids.stopped}).`);
    expect(await json('agent-pool', 'agents', 'delete', 'builders', ids.twin, '--yes')).toEqual({
      id: ids.twin,
      type: 'agents',
      deleted: true,
    });
    expect((await json('agent-pool', 'agents', 'builders')).map((a: any) => a.id)).toEqual([ids.running, ids.twin2]);
  });

  it('refuses a running agent, an unknown one, and no --yes off a terminal', async () => {
    const running = await cli('agent-pool', 'agents', 'delete', 'builders', 'running', '--yes');
    expect(running.code).not.toBe(0);
    expect(running.stderr).toContain('is idle: only an agent that is exited, errored or unknown can be deleted');
    const unknown = await cli('agent-pool', 'agents', 'delete', 'builders', 'nobody', '--yes');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('pool builders has no agent "nobody"');
    const noYes = await cli('agent-pool', 'agents', 'delete', 'builders', 'twin');
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('without --yes');
    expect((await json('agent-pool', 'agents', 'builders')).map((a: any) => a.id)).toEqual([ids.running, ids.twin2]);
  });

  it('shows examples in its help', async () => {
    const help = await cli('agent-pool', 'agents', 'delete', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('agent-pool agents delete builders builder-1 --org acme --yes');
  });
});
