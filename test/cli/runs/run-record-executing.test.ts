import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

// Issue 34: `berth run record` on a server that executes runs records the run (it created a run
// for the server to execute, which the report then could not move).
describe('berth run record against berth serve --execute-runs', () => {
  const tmp = tempDb();
  let server: ServeProcess;
  const cli = (...args: string[]) =>
    runCli([...args, '--server', server.url, '--token', server.token!, '--org', 'acme']);

  beforeAll(async () => {
    server = await startServe(tmp.db, ['--execute-runs']);
    expect((await cli('org', 'create', 'acme', '--email', 'a@a.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'web')).code).toBe(0);
  });
  afterAll(async () => {
    await server.stop();
    tmp.cleanup();
  });

  it('records an applied run with its durations; it has no configuration and no log', async () => {
    const res = await cli(
      'run',
      'record',
      'web',
      '--status',
      'applied',
      '--plan-ms',
      '4000',
      '--apply-ms',
      '9000',
      '--json',
    );
    expect(res.code, res.stderr).toBe(0);
    const run = JSON.parse(res.stdout);
    expect(run.attributes.status).toBe('applied');
    const at = run.attributes['status-timestamps'];
    expect(Date.parse(at['applied-at']) - Date.parse(at['applying-at'])).toBe(9000);
    expect(Date.parse(at['planned-at']) - Date.parse(at['planning-at'])).toBe(4000);
    const shown = await fetch(`${server.url.replace(/\/$/, '')}/api/v2/runs/${run.id}`, {
      headers: { Authorization: `Bearer ${server.token}` },
    }).then((r) => r.json() as Promise<any>);
    expect(shown.data.attributes.status).toBe('applied');
    expect(shown.data.relationships['configuration-version'].data).toBeNull();
  });

  it('records an errored plan too, and the workspace is left unlocked', async () => {
    const res = await cli(
      'run',
      'record',
      'web',
      '--status',
      'errored',
      '--plan-ms',
      '100',
      '--error',
      'boom',
      '--json',
    );
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).attributes.status).toBe('errored');
    const ws = JSON.parse((await cli('workspace', 'show', 'web', '--json')).stdout);
    expect(ws.attributes.locked).toBe(false);
  });
});
