import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../../helpers/cli.js';
import { remoteCli, startServe, type ServeProcess } from '../../helpers/serve.js';

/**
 * `berth run show` says where an executed run executed (issue 36): no executor yet while it is
 * queued, then the agent (its name and pool) that claimed it. The agent is registered and claims
 * through the agent protocol, with no `berth agent` process (and so no terraform); serve runs with
 * a stand-in terraform binary it never gets to use (the workspace executes on agents).
 */
describe('berth run show: Executed by', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  const { remote, json } = remoteCli(() => server, 'acme');

  const v2 = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${server.url}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}`).toBeLessThan(300);
    return res.status === 204 ? null : res.json();
  };
  const agentCall = async (token: string, path: string, body: unknown, agent?: string): Promise<any> => {
    const res = await fetch(`${server.url}/api/agent${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        ...(agent ? { 'X-Berth-Agent': agent } : {}),
      },
      body: JSON.stringify(body),
    });
    expect(res.status, path).toBeLessThan(300);
    return res.json();
  };

  beforeAll(async () => {
    const bin = join(tmp.dir, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'terraform'),
      `#!/bin/sh\necho '{"terraform_version":"1.99.0","platform":"linux_amd64"}'\n`,
    );
    chmodSync(join(bin, 'terraform'), 0o755);
    server = await startServe(tmp.db, ['--execute-runs'], { PATH: `${bin}:${process.env.PATH}` });
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('no executor yet while queued, then the agent that claimed it and its pool', async () => {
    await v2('POST', '/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@a.test' } },
    });
    const pool = (
      await v2('POST', '/organizations/acme/agent-pools', {
        data: { type: 'agent-pools', attributes: { name: 'builders' } },
      })
    ).data.id;
    const ws = (
      await v2('POST', '/organizations/acme/workspaces', {
        data: { type: 'workspaces', attributes: { name: 'web', 'execution-mode': 'agent', 'agent-pool-id': pool } },
      })
    ).data.id;
    const token = (
      await v2('POST', `/agent-pools/${pool}/authentication-tokens`, {
        data: { type: 'authentication-tokens', attributes: { description: 'cli test' } },
      })
    ).data.attributes.token;
    const agent = (await agentCall(token, '/register', { name: 'builder-1' })).id;

    const cv = (
      await v2('POST', `/workspaces/${ws}/configuration-versions`, {
        data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
      })
    ).data;
    const up = await fetch(cv.attributes['upload-url'], {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: gzipSync(Buffer.from('main.tf\0resource "terraform_data" "x" {}')),
    });
    expect(up.status).toBe(200);
    const run = (
      await v2('POST', '/runs', {
        data: {
          type: 'runs',
          attributes: { 'plan-only': true },
          relationships: { workspace: { data: { type: 'workspaces', id: ws } } },
        },
      })
    ).data;

    const queued = await remote('run', 'show', run.id);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stdout).toMatch(/Executed by\s+no executor yet\n/);

    expect((await agentCall(token, '/claim', {}, agent)).claim).toMatchObject({ runId: run.id, phase: 'plan' });
    const claimed = await remote('run', 'show', run.id);
    expect(claimed.code, claimed.stderr).toBe(0);
    expect(claimed.stdout).toMatch(new RegExp(`Executed by\\s+agent builder-1 \\(${agent}\\) of pool builders\\n`));
    expect((await json('run', 'show', run.id)).attributes['executed-by']).toEqual({
      kind: 'agent',
      name: 'builder-1',
      'agent-id': agent,
      'agent-pool-id': pool,
    });
  });
});
