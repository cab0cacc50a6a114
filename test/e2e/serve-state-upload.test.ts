import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A 60 MiB state of small objects, uploaded to one `serve` while a second `serve` on the same file
 * takes and releases a lock on another workspace (issue 19, item 2). The state used to be parsed
 * and written inside the write transaction, on the event loop: `/healthz` of the first server
 * waited seconds, and so did every write of the second. Now the parse and the file's write happen
 * on worker threads, and the transaction only records the result. Also: the signed state URLs of
 * one server work on the other (one secret in the database), and `--state-url-ttl` (item 5).
 */
describe('serve: a big state upload, and signed state URLs across servers', () => {
  const tmp = tempDb();
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;

  const call = async (server: ServeProcess, method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - started, json: () => JSON.parse(text) };
  };
  const workspace = async (name: string) => {
    const res = await call(a, 'POST', '/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name } },
    });
    expect(res.status, res.text).toBe(201);
    return res.json().data.id as string;
  };
  const createVersion = async (server: ServeProcess, wsId: string, state: Buffer, inline = false) => {
    const md5 = createHash('md5').update(state).digest('hex');
    const attributes = inline ? { serial: 1, md5, state: state.toString('base64') } : { serial: 1, md5 };
    const res = await call(server, 'POST', `/api/v2/workspaces/${wsId}/state-versions`, {
      data: { type: 'state-versions', attributes },
    });
    expect(res.status, res.text).toBe(201);
    return res.json().data as { id: string; attributes: Record<string, string> };
  };

  beforeAll(async () => {
    a = await startServe(tmp.db);
    token = a.token!;
    b = await startServe(tmp.db, ['--state-url-ttl', '2']);
    const org = await call(a, 'POST', '/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
    });
    expect(org.status, org.text).toBe(201);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    tmp.cleanup();
  });

  it('a 60 MiB upload to one server: its /healthz and a lock on the other server answer quickly meanwhile', async () => {
    const one = await workspace('big');
    const two = await workspace('other');
    expect((await call(a, 'POST', `/api/v2/workspaces/${one}/actions/lock`, {})).status).toBe(200);
    const item = (i: number) => `{"key":"abcdefghijklmnopqrstuvwx${i % 10}"}`;
    const items: string[] = [];
    let size = 0;
    for (let i = 0; size < 60 * 1024 * 1024; i++) {
      items.push(item(i));
      size += 40;
    }
    const state = Buffer.from(
      '{"version":4,"terraform_version":"1.9.0","serial":1,"lineage":"big","outputs":{"n":{"value":1,"type":"number"}},' +
        '"resources":[{"mode":"managed","type":"null_resource","name":"n","provider":"provider[\\"registry.terraform.io/hashicorp/null\\"]",' +
        `"instances":[{"schema_version":0,"attributes":{"list":[${items.join(',')}]}}]}]}`,
    );
    items.length = 0;
    const sv = await createVersion(a, one, state);

    let done = false;
    const health: number[] = [];
    const locks: { status: number; ms: number }[] = [];
    const polling = (async () => {
      while (!done) {
        const started = performance.now();
        const res = await fetch(`${a.url}/healthz`);
        await res.text();
        health.push(performance.now() - started);
        await sleep(20);
      }
    })();
    const locking = (async () => {
      while (!done) {
        for (const action of ['lock', 'unlock']) {
          const res = await call(b, 'POST', `/api/v2/workspaces/${two}/actions/${action}`, {});
          locks.push({ status: res.status, ms: res.ms });
        }
        await sleep(50);
      }
    })();
    await sleep(200);
    const upload = await fetch(sv.attributes['hosted-state-upload-url'], { method: 'PUT', body: state });
    expect(upload.status, await upload.text()).toBe(200);
    done = true;
    await Promise.all([polling, locking]);

    expect(locks.filter((l) => l.status !== 200)).toEqual([]);
    const h = health.sort((x, y) => x - y);
    const l = locks.map((x) => x.ms).sort((x, y) => x - y);
    // Before: /healthz waited seconds (the parse and the write on the event loop), and so did the
    // other server's locks (the write transaction held the lock meanwhile). Generous bounds for a
    // loaded test machine; the median is a few milliseconds.
    expect(h.length, h.join(' ')).toBeGreaterThan(20);
    expect(h[Math.floor(h.length / 2)], h.join(' ')).toBeLessThan(50);
    expect(h.at(-1), h.join(' ')).toBeLessThan(1500);
    expect(l[Math.floor(l.length / 2)], l.join(' ')).toBeLessThan(100);
    expect(l.at(-1), l.join(' ')).toBeLessThan(2000);

    // What the upload stored: the version as the API shows it, and the bytes served back.
    const read = await call(b, 'GET', `/api/v2/state-versions/${sv.id}`);
    const attributes = read.json().data.attributes;
    expect(attributes).toMatchObject({ status: 'finalized', size: state.length, 'resource-count': 1 });
    const back = await fetch(attributes['hosted-state-download-url']);
    expect(Buffer.from(await back.arrayBuffer()).equals(state)).toBe(true);
  }, 120_000);

  it("one server's signed URLs work on the other; --state-url-ttl 2 makes them expire after 2 s", async () => {
    const wsId = await workspace('urls');
    expect((await call(a, 'POST', `/api/v2/workspaces/${wsId}/actions/lock`, {})).status).toBe(200);
    const state = Buffer.from('{"version":4,"serial":1,"lineage":"u","outputs":{},"resources":[]}');
    const sv = await createVersion(a, wsId, state, true);
    const fromA = new URL(sv.attributes['hosted-state-download-url']);
    const onB = `${b.url}${fromA.pathname}${fromA.search}`;
    expect(await (await fetch(onB)).text()).toBe(state.toString());
    // A's URLs last the default five minutes; B's, read from B, two seconds.
    const nowSeconds = Math.floor(Date.now() / 1000);
    expect(Number(fromA.searchParams.get('expires')) - nowSeconds).toBeGreaterThan(290);
    const read = await call(b, 'GET', `/api/v2/state-versions/${sv.id}`);
    const short = read.json().data.attributes['hosted-state-download-url'] as string;
    expect(Number(new URL(short).searchParams.get('expires')) - nowSeconds).toBeLessThanOrEqual(3);
    expect((await fetch(short)).status).toBe(200);
    await sleep(3100);
    const expired = await fetch(short);
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as any).errors[0].status).toBe('404');
    expect((await fetch(onB)).status).toBe(200);
  }, 30_000);

  it('refuses a --state-url-ttl out of range (usage error)', async () => {
    const other = tempDb();
    try {
      for (const ttl of ['0', '86401']) {
        const res = await runCli(['serve', '--port', '0', '--database', other.db, '--state-url-ttl', ttl]);
        expect(res.code).toBe(2);
        expect(res.stderr).toMatch(/state-url-ttl/);
      }
    } finally {
      other.cleanup();
    }
  });
});
