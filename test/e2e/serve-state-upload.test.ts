import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * The second server's `--state-url-ttl`: short, so that its URLs expire within the test, yet long
 * enough for a read and a download on a loaded machine to fit in it (2 s did not always).
 */
const TTL = 5;

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
    b = await startServe(tmp.db, ['--state-url-ttl', String(TTL)]);
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

  it('a 60 MiB upload to one server: its /healthz and a lock on the other server are answered meanwhile', async () => {
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

    // Checked by events, not durations (a loaded machine makes every request slow): while the
    // server works on the upload (its body all sent, its answer not yet come) /healthz goes on
    // being answered and the other server keeps locking. Before, the parse and the write ran on
    // the event loop, inside the write transaction: neither was answered until the upload was.
    let sent = false;
    let answered = false;
    let done = false;
    const health: { ms: number; meanwhile: boolean }[] = [];
    const locks: { status: number; ms: number; meanwhile: boolean }[] = [];
    const polling = (async () => {
      while (!done) {
        const during = sent && !answered;
        const started = performance.now();
        const res = await fetch(`${a.url}/healthz`);
        await res.text();
        health.push({ ms: performance.now() - started, meanwhile: during && !answered });
        await sleep(5);
      }
    })();
    const locking = (async () => {
      while (!done) {
        for (const action of ['lock', 'unlock']) {
          const during = sent && !answered;
          const res = await call(b, 'POST', `/api/v2/workspaces/${two}/actions/${action}`, {});
          locks.push({ status: res.status, ms: res.ms, meanwhile: during && !answered });
        }
        await sleep(5);
      }
    })();
    const upload = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(sv.attributes['hosted-state-upload-url'], {
        method: 'PUT',
        headers: { 'Content-Length': String(state.length) },
      });
      req.on('response', (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      // 'finish': the whole body is handed to the system (all but a socket buffer's worth read).
      req.end(state, () => (sent = true));
    });
    expect(upload.status, upload.text).toBe(200);
    done = true;
    await Promise.all([polling, locking]);

    expect(locks.filter((l) => l.status !== 200)).toEqual([]);
    const figures = (ms: number[]) => {
      const sorted = [...ms].sort((x, y) => x - y);
      return `${sorted.length}, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, max ${sorted.at(-1)?.toFixed(1)} ms`;
    };
    console.log(
      `60 MiB upload: /healthz answers ${figures(health.map((x) => x.ms))}; ` +
        `locks on the other server ${figures(locks.map((x) => x.ms))}; ` +
        `while the server worked on it: ${health.filter((x) => x.meanwhile).length} /healthz, ` +
        `${locks.filter((x) => x.meanwhile).length} locks and unlocks`,
    );
    // Many answers, where the old server gave none (a few could slip in while the last of the
    // body was read).
    expect(health.filter((x) => x.meanwhile).length, figures(health.map((x) => x.ms))).toBeGreaterThanOrEqual(10);
    expect(locks.filter((x) => x.meanwhile).length, figures(locks.map((x) => x.ms))).toBeGreaterThanOrEqual(2);

    // What the upload stored: the version as the API shows it, and the bytes served back.
    const read = await call(b, 'GET', `/api/v2/state-versions/${sv.id}`);
    const attributes = read.json().data.attributes;
    expect(attributes).toMatchObject({ status: 'finalized', size: state.length, 'resource-count': 1 });
    const back = await fetch(attributes['hosted-state-download-url']);
    expect(Buffer.from(await back.arrayBuffer()).equals(state)).toBe(true);
  }, 120_000);

  it("one server's signed URLs work on the other; --state-url-ttl makes them expire after that many seconds", async () => {
    const wsId = await workspace('urls');
    expect((await call(a, 'POST', `/api/v2/workspaces/${wsId}/actions/lock`, {})).status).toBe(200);
    const state = Buffer.from('{"version":4,"serial":1,"lineage":"u","outputs":{},"resources":[]}');
    const before = Math.floor(Date.now() / 1000);
    const sv = await createVersion(a, wsId, state, true);
    const fromA = new URL(sv.attributes['hosted-state-download-url']);
    const onB = `${b.url}${fromA.pathname}${fromA.search}`;
    expect(await (await fetch(onB)).text()).toBe(state.toString());
    // A's URLs last the default five minutes; B's, read from B, TTL seconds from the read.
    expect(Number(fromA.searchParams.get('expires')) - before).toBeGreaterThanOrEqual(300);
    const readFrom = Math.floor(Date.now() / 1000);
    const read = await call(b, 'GET', `/api/v2/state-versions/${sv.id}`);
    const readUntil = Math.floor(Date.now() / 1000);
    const short = read.json().data.attributes['hosted-state-download-url'] as string;
    const expires = Number(new URL(short).searchParams.get('expires'));
    expect(expires).toBeGreaterThanOrEqual(readFrom + TTL);
    expect(expires).toBeLessThanOrEqual(readUntil + TTL);
    expect((await fetch(short)).status).toBe(200);
    // Waits for the expiry itself (the servers' clock is this one), however long that took.
    while (Date.now() < expires * 1000) await sleep(Math.max(1, expires * 1000 - Date.now()));
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
