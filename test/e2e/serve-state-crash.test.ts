import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/**
 * `serve` killed between staging a big state file and recording it (issue 32, item 1). A big
 * upload is written first by a worker (store/state-file-stage.ts), then recorded by the write
 * transaction; a SIGKILL in between used to leave the version `pending` for ever: a retried PUT
 * answered 409 "already been uploaded" (the staged row was in the way), the holder's unlock 503
 * "still pending", and the staged bytes stayed. The hook `BERTH_TEST_CRASH_AFTER_STAGING=<kind>`
 * makes serve kill itself at exactly that moment, so no kill is timed.
 */
describe('serve: a crash between staging and recording a big state file', () => {
  const tmp = tempDb();
  let steady: ServeProcess;
  let crashing: ServeProcess | null = null;
  let token: string;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${steady.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  };
  /** The same signed URL, on another server of the same database. */
  const on = (server: ServeProcess, url: string) => {
    const u = new URL(url);
    return `${server.url}${u.pathname}${u.search}`;
  };
  /** Starts a server that kills itself after staging a file of `kind`, PUTs `body` there, and waits for the kill. */
  const putAndCrash = async (kind: 'state' | 'json-state', url: string, body: Buffer) => {
    crashing = await startServe(tmp.db, [], { BERTH_TEST_CRASH_AFTER_STAGING: kind });
    const died = new Promise<NodeJS.Signals | null>((resolve) =>
      crashing!.child.once('exit', (_, signal) => resolve(signal)),
    );
    const put = await fetch(on(crashing, url), { method: 'PUT', body }).then(
      (res) => `answered ${res.status}`,
      (err: Error) => `failed: ${err.message}`,
    );
    expect(put).toMatch(/^failed/);
    expect(await died).toBe('SIGKILL');
    crashing = null;
  };

  beforeAll(async () => {
    steady = await startServe(tmp.db);
    token = steady.token!;
    const org = await call('POST', '/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
    });
    expect(org.status, org.text).toBe(201);
  });
  afterAll(async () => {
    await crashing?.stop('SIGKILL');
    await steady?.stop();
    tmp.cleanup();
  });

  it('a staged file is adopted on retry and when serve starts again; retries succeed; unlock works', async () => {
    const ws = await call('POST', '/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'crash' } },
    });
    expect(ws.status, ws.text).toBe(201);
    const wsId = ws.json().data.id as string;
    expect((await call('POST', `/api/v2/workspaces/${wsId}/actions/lock`, {})).status).toBe(200);

    // An 8 MB state and a 1 MB JSON state: both over 256 KiB, so both are staged.
    const instances = Array.from(
      { length: 110_000 },
      (_, i) => `{"attributes":{"id":"instance-${i}-abcdefghijklmnopqrstuvwxyz0123456789"}}`,
    );
    const state = Buffer.from(
      '{"version":4,"terraform_version":"1.9.0","serial":1,"lineage":"crash","outputs":{"n":{"value":1,"type":"number"}},' +
        '"resources":[{"mode":"managed","type":"null_resource","name":"n","provider":"provider[\\"registry.terraform.io/hashicorp/null\\"]",' +
        `"instances":[{"schema_version":0,"attributes":{"list":[${instances.join(',')}]}}]}]}`,
    );
    expect(state.length).toBeGreaterThan(8_000_000);
    const jsonState = Buffer.from(JSON.stringify({ format_version: '1.0', values: { pad: 'x'.repeat(1_000_000) } }));
    const md5 = createHash('md5').update(state).digest('hex');
    const created = await call('POST', `/api/v2/workspaces/${wsId}/state-versions`, {
      data: { type: 'state-versions', attributes: { serial: 1, md5 } },
    });
    expect(created.status, created.text).toBe(201);
    const sv = created.json().data as { id: string; attributes: Record<string, string> };
    const stateUrl = sv.attributes['hosted-state-upload-url'];
    const jsonUrl = sv.attributes['hosted-json-state-upload-url'];

    // The JSON state: staged, then serve dies. A retry on the other server adopts the staged bytes.
    await putAndCrash('json-state', jsonUrl, jsonState);
    const jsonRetry = await fetch(on(steady, jsonUrl), { method: 'PUT', body: jsonState });
    expect(jsonRetry.status, await jsonRetry.text()).toBe(200);
    // A different JSON state is not taken any more.
    const other = await fetch(on(steady, jsonUrl), { method: 'PUT', body: Buffer.from('{"other":true}') });
    expect(other.status, await other.text()).toBe(409);

    // The raw state: staged, then serve dies; the version is still pending, so unlock waits.
    await putAndCrash('state', stateUrl, state);
    const waiting = await call('POST', `/api/v2/workspaces/${wsId}/actions/unlock`, {});
    expect(waiting.status, waiting.text).toBe(503);

    // serve starts again: the staged state is checked and recorded.
    const restarted = await startServe(tmp.db);
    try {
      expect(restarted.stderr()).toMatch(/state files left by an interrupted upload: 1 recorded, 0 removed/);
    } finally {
      await restarted.stop();
    }
    const read = await call('GET', `/api/v2/state-versions/${sv.id}`);
    expect(read.json().data.attributes).toMatchObject({
      status: 'finalized',
      size: state.length,
      'resource-count': 1,
      'hosted-state-upload-url': null,
    });
    // The client's retry of its PUT (its answer was lost): the same bytes, so 200, nothing changed.
    const stateRetry = await fetch(on(steady, stateUrl), { method: 'PUT', body: state });
    expect(stateRetry.status, await stateRetry.text()).toBe(200);
    const jsonAgain = await fetch(on(steady, jsonUrl), { method: 'PUT', body: jsonState });
    expect(jsonAgain.status, await jsonAgain.text()).toBe(200);

    const unlock = await call('POST', `/api/v2/workspaces/${wsId}/actions/unlock`, {});
    expect(unlock.status, unlock.text).toBe(200);
    const current = await call('GET', `/api/v2/workspaces/${wsId}/current-state-version`);
    expect(current.status, current.text).toBe(200);
    const attributes = current.json().data.attributes;
    expect(current.json().data.id).toBe(sv.id);
    const back = await fetch(attributes['hosted-state-download-url']);
    expect(Buffer.from(await back.arrayBuffer()).equals(state)).toBe(true);
    const backJson = await fetch(attributes['hosted-json-state-download-url']);
    expect(Buffer.from(await backJson.arrayBuffer()).equals(jsonState)).toBe(true);
  }, 120_000);
});
