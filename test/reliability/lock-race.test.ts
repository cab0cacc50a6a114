import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/common/exit-codes.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { sharedDatabase } from '../helpers/store.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const HTTP_ATTEMPTS = 188;
const CLI_STREAMS = 4;
const CLI_PER_STREAM = 3;

/**
 * 200 lock attempts on one workspace, all on one database (a SQLite file, or PostgreSQL under
 * BERTH_TEST_DATABASE_URL): 188 over HTTP, split between two
 * `berth serve` processes, and 12 from four concurrent streams (three each, one after another) of `berth workspace lock` in local
 * mode. The HTTP attempts are fired in waves while the CLI streams run, so that all six processes
 * contend for the database's write lock at once. Exactly one attempt wins.
 */
describe('200 lock attempts from 2 serve processes and 4 CLI processes on one database', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;
  let workspaceId: string;

  const call = (base: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}/api/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    shared = await sharedDatabase();
    a = await startServe(shared.location);
    token = a.token!;
    b = await startServe(shared.location);
    expect(
      (
        await call(a.url, 'POST', '/organizations', {
          data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
        })
      ).status,
    ).toBe(201);
    const ws = await call(b.url, 'POST', '/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'contested' } },
    });
    expect(ws.status).toBe(201);
    workspaceId = ((await ws.json()) as any).data.id;
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await shared?.cleanup();
  });

  it('exactly one succeeds; every other gets 409 (CLI: exit 8, or 0 saying the caller holds it); no 5xx; no "database is locked" anywhere', async () => {
    const cliStream = async (): Promise<CliResult[]> => {
      const out: CliResult[] = [];
      for (let i = 0; i < CLI_PER_STREAM; i++)
        out.push(await runCli(['workspace', 'lock', workspaceId, '--database', shared.location, '--json']));
      return out;
    };
    const streams = Array.from({ length: CLI_STREAMS }, cliStream);
    let cliDone = false;
    const cli = Promise.all(streams).then((r) => {
      cliDone = true;
      return r.flat();
    });
    const statuses: number[] = [];
    const bodies: string[] = [];
    const waves = 12;
    for (let wave = 0; wave < waves; wave++) {
      const size = Math.floor(HTTP_ATTEMPTS / waves) + (wave < HTTP_ATTEMPTS % waves ? 1 : 0);
      const results = await Promise.all(
        Array.from({ length: size }, (_, i) =>
          call(i % 2 === 0 ? a.url : b.url, 'POST', `/workspaces/${workspaceId}/actions/lock`, {
            reason: `http ${wave}/${i}`,
          }).then(async (r) => ({ status: r.status, text: await r.text() })),
        ),
      );
      for (const r of results) {
        statuses.push(r.status);
        bodies.push(r.text);
      }
      // Spread the waves over the time the CLI processes take to start and run.
      if (!cliDone) await new Promise((r) => setTimeout(r, 100));
    }
    const cliResults = await cli;

    expect(statuses).toHaveLength(HTTP_ATTEMPTS);
    expect(cliResults).toHaveLength(CLI_STREAMS * CLI_PER_STREAM);
    const httpWins = statuses.filter((s) => s === 200).length;
    // The CLI (local mode) acts as the same administrator as the serve token: once the lock is
    // taken, its attempts are re-locks of a held lock, which exit 0 and say so on stderr.
    const cliWins = cliResults.filter((r) => r.code === EXIT.ok && !r.stderr.includes('already locked by you')).length;
    expect(httpWins + cliWins).toBe(1);
    expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
    expect(
      cliResults.filter((r) => r.code !== EXIT.ok && r.code !== EXIT.lockedByOther).map((r) => `${r.code} ${r.stderr}`),
    ).toEqual([]);
    for (const [i, text] of bodies.entries())
      if (statuses[i] === 409) expect(JSON.parse(text).errors[0]).toMatchObject({ status: '409' });
    const everything =
      a.stderr() + b.stderr() + cliResults.map((r) => r.stderr + r.stdout).join('\n') + bodies.join('\n');
    expect(everything).not.toMatch(/database is locked|SQLITE_BUSY|unexpected error|internal server error/i);
  });

  it('both servers and the CLI then see the workspace locked, and either server can unlock it for an HTTP holder', async () => {
    for (const server of [a, b]) {
      const doc = (await (await call(server.url, 'GET', `/workspaces/${workspaceId}`)).json()) as any;
      expect(doc.data.attributes.locked).toBe(true);
    }
    const shown = await runCli(['workspace', 'show', workspaceId, '--database', shared.location, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).attributes.locked).toBe(true);
    const forced = await call(b.url, 'POST', `/workspaces/${workspaceId}/actions/force-unlock`);
    expect(forced.status).toBe(200);
    const doc = (await (await call(a.url, 'GET', `/workspaces/${workspaceId}`)).json()) as any;
    expect(doc.data.attributes.locked).toBe(false);
  });
});
