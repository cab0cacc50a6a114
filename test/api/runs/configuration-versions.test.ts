import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CONFIGURATION_BYTES } from '../../../src/domain/runs/run-execution.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import {
  ARCHIVE,
  appWithClock,
  cvBody,
  executingFixture,
  newConfiguration,
  P,
  runBody,
  sendBytes,
} from '../../helpers/run-execution.js';

/**
 * Configuration versions (runs berth executes): created pending with a signed upload URL,
 * uploaded once (a tar.gz, bounded in size), listed and shown; with auto-queue-runs the upload
 * queues a run. An instance that does not execute runs takes them too; its runs end errored.
 */
describe('configuration versions', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });

  it('are created pending with an upload URL, shown and listed; the upload makes them uploaded', async () => {
    const created = await f.api.post(`${P}/workspaces/${f.web}/configuration-versions`, cvBody(), t());
    expect(created.status, created.text).toBe(201);
    const cv = created.body.data;
    expect(cv.id).toMatch(/^cv-/);
    expect(cv.attributes).toMatchObject({
      status: 'pending',
      'auto-queue-runs': true,
      speculative: false,
      source: 'tfe-api',
      size: 0,
    });
    expect(cv.attributes['upload-url']).toMatch(
      new RegExp(`/api/v2/configuration-versions/${cv.id}/upload\\?expires=\\d+&signature=[\\w-]+$`),
    );
    expect(cv.relationships.workspace.data).toEqual({ type: 'workspaces', id: f.web });

    const shown = await f.api.get(`${P}/configuration-versions/${cv.id}`, t());
    expect(shown.status).toBe(200);
    expect(shown.body.data.attributes.status).toBe('pending');
    // Only the create's answer hands out the upload URL (HCP, and go-tfe's tests), also while pending.
    expect(shown.body.data.attributes).not.toHaveProperty('upload-url');
    const pendingList = (await f.api.get(`${P}/workspaces/${f.web}/configuration-versions`, t())).body.data;
    expect(pendingList[0].attributes).not.toHaveProperty('upload-url');
    // No VCS: never any ingress attributes.
    expect(shown.body.data.relationships['ingress-attributes']).toEqual({ data: null });

    const up = await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], ARCHIVE);
    expect(up.status, up.text).toBe(200);
    const after = (await f.api.get(`${P}/configuration-versions/${cv.id}`, t())).body.data;
    expect(after.attributes).toMatchObject({ status: 'uploaded', size: ARCHIVE.length });
    expect(after.attributes['status-timestamps']['uploaded-at']).toEqual(expect.any(String));
    // Once uploaded, no upload URL is handed out any more.
    expect(after.attributes['upload-url']).toBeUndefined();

    const second = await f.api.post(`${P}/workspaces/${f.web}/configuration-versions`, cvBody(), t());
    const list = await f.api.get(`${P}/workspaces/${f.web}/configuration-versions`, t());
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: any) => c.id)).toEqual([second.body.data.id, cv.id]);
    expect(list.body.meta.pagination['total-count']).toBe(2);

    const download = await f.api.get(`${P}/configuration-versions/${cv.id}/download`, t());
    expect(download.status).toBe(200);
  });

  it('with auto-queue-runs, the upload queues a run of the version (speculative: plan-only)', async () => {
    const cv = await newConfiguration(f, f.web, { autoQueueRuns: true });
    const runs = await f.api.get(`${P}/workspaces/${f.web}/runs`, t());
    expect(runs.body.data).toHaveLength(1);
    const run = (await f.api.get(`${P}/runs/${runs.body.data[0].id}`, t())).body.data;
    expect(run.relationships['configuration-version'].data.id).toBe(cv.id);
    expect(run.attributes).toMatchObject({ status: 'plan_queued', 'plan-only': false });

    const spec = await newConfiguration(f, f.web, { autoQueueRuns: true, speculative: true });
    const all = (await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data;
    expect(all).toHaveLength(2);
    const planOnly = (await f.api.get(`${P}/runs/${all[0].id}`, t())).body.data;
    expect(planOnly.relationships['configuration-version'].data.id).toBe(spec.id);
    expect(planOnly.attributes).toMatchObject({ status: 'plan_queued', 'plan-only': true });
  });

  it('without auto-queue-runs, the upload queues nothing', async () => {
    await newConfiguration(f, f.web, { autoQueueRuns: false });
    expect((await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data).toEqual([]);
  });

  it('take another upload while no run used them (the archive is replaced); a 409 once one did', async () => {
    const cv = await newConfiguration(f, f.web);
    const url = cv.attributes['upload-url'];
    // The same archive again, as go-tfe's tests do, then another one: each replaces the stored one.
    expect((await sendBytes(f.api.app, 'PUT', url, ARCHIVE)).status).toBe(200);
    const other = gzipSync(Buffer.from('main.tf\0# another configuration'));
    expect((await sendBytes(f.api.app, 'PUT', url, other)).status).toBe(200);
    const shown = (await f.api.get(`${P}/configuration-versions/${cv.id}`, t())).body.data;
    expect(shown.attributes).toMatchObject({ status: 'uploaded', size: other.length });
    const download = await f.api.app.fetch(
      new Request(`http://berth.test${P}/configuration-versions/${cv.id}/download`, {
        headers: { Authorization: `Bearer ${f.owner.token}` },
      }),
    );
    expect(Buffer.from(await download.arrayBuffer())).toEqual(other);
    // No second run was queued by it (without auto-queue-runs, none at all).
    expect((await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data).toEqual([]);

    const queued = await f.api.post(`${P}/runs`, runBody(f.web, {}, cv.id), t());
    expect(queued.status, queued.text).toBe(201);
    const run = queued.body.data;
    const used = await sendBytes(f.api.app, 'PUT', url, ARCHIVE);
    expect(used.status).toBe(409);
    expect(used.body.errors[0]).toMatchObject({ status: '409', title: 'conflict' });
    expect(used.body.errors[0].detail).toContain(`used by run ${run.id}`);
    const after = (await f.api.get(`${P}/configuration-versions/${cv.id}`, t())).body.data;
    expect(after.attributes.size).toBe(other.length);
  });

  it('with auto-queue-runs, a second upload is a 409: the first queued a run of it', async () => {
    const cv = await newConfiguration(f, f.web, { autoQueueRuns: true });
    const again = await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], ARCHIVE);
    expect(again.status).toBe(409);
    expect((await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data).toHaveLength(1);
  });

  it('refuse what is not gzip data (422) and what is too large (413), and stay pending', async () => {
    const cv = (await f.api.post(`${P}/workspaces/${f.web}/configuration-versions`, cvBody(), t())).body.data;
    const url = cv.attributes['upload-url'];
    const plain = await sendBytes(f.api.app, 'PUT', url, Buffer.from('resource "x" "y" {}'));
    expect(plain.status, plain.text).toBe(422);
    const huge = Buffer.alloc(MAX_CONFIGURATION_BYTES + 1);
    huge[0] = 0x1f;
    huge[1] = 0x8b;
    const big = await sendBytes(f.api.app, 'PUT', url, huge);
    expect(big.status, big.text).toBe(413);
    const shown = (await f.api.get(`${P}/configuration-versions/${cv.id}`, t())).body.data;
    expect(shown.attributes.status).toBe('pending');
    // The URL still works for a good archive.
    expect((await sendBytes(f.api.app, 'PUT', url, ARCHIVE)).status).toBe(200);
  });

  it('refuse an upload with a bad, missing or expired signature (404), as the state URLs do', async () => {
    let at = new Date('2030-01-01T00:00:00Z');
    const clock = { now: () => at };
    const app = appWithClock(f.api, clock);
    const created = await app.fetch(
      new Request(`http://berth.test${P}/workspaces/${f.web}/configuration-versions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${f.owner.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify(cvBody()),
      }),
    );
    expect(created.status).toBe(201);
    const cv = ((await created.json()) as any).data;
    const url = new URL(cv.attributes['upload-url']);
    const forged = `${url.pathname}?expires=${url.searchParams.get('expires')}&signature=${'A'.repeat(43)}`;
    expect((await sendBytes(app, 'PUT', forged, ARCHIVE)).status).toBe(404);
    expect((await sendBytes(app, 'PUT', url.pathname, ARCHIVE)).status).toBe(404);
    // Another version's signature does not open this one.
    const other = await newConfiguration(f, f.web, { upload: false });
    const otherUrl = new URL(other.attributes['upload-url']);
    expect((await sendBytes(app, 'PUT', `${url.pathname}${otherUrl.search}`, ARCHIVE)).status).toBe(404);
    // Past its expiry (the instance's state URL lifetime, 300 s by default).
    at = new Date(at.getTime() + 301_000);
    const late = await sendBytes(app, 'PUT', url.pathname + url.search, ARCHIVE);
    expect(late.status).toBe(404);
    expect(late.body.errors[0].detail).toMatch(/expired/);
    at = new Date(at.getTime() - 2_000);
    expect((await sendBytes(app, 'PUT', url.pathname + url.search, ARCHIVE)).status).toBe(200);
  });

  it('a reader sees them but cannot create them nor download them; another organization gets 404', async () => {
    const cv = await newConfiguration(f, f.web);
    const reader = await f.api.userToken('outsider');
    // Not a member of acme: nothing of it exists.
    for (const path of [
      `${P}/configuration-versions/${cv.id}`,
      `${P}/configuration-versions/${cv.id}/download`,
      `${P}/workspaces/${f.web}/configuration-versions`,
    ])
      expect((await f.api.get(path, { token: reader.token })).status, path).toBe(404);
    const create = await f.api.post(`${P}/workspaces/${f.web}/configuration-versions`, cvBody(), {
      token: reader.token,
    });
    expect(create.status).toBe(404);
  });
});

describe('configuration versions on an instance that does not execute runs', () => {
  let api: TestApi;
  afterEach(() => api.close());

  it('are created and uploaded (the run the upload queues ends errored: run-execution.test.ts); operations: false', async () => {
    api = await TestApi.create();
    const f = await accessFixture(api);
    const res = await api.post(`${P}/workspaces/${f.web}/configuration-versions`, cvBody(), {
      token: f.owner.token,
    });
    expect(res.status, res.text).toBe(201);
    const up = await sendBytes(api.app, 'PUT', res.body.data.attributes['upload-url'], ARCHIVE);
    expect(up.status, up.text).toBe(200);
    const cv = await api.get(`${P}/configuration-versions/${res.body.data.id}`, { token: f.owner.token });
    expect(cv.body.data.attributes.status).toBe('uploaded');
    const missing = await api.post(`${P}/workspaces/ws-AAAAAAAAAAAAAAAA/configuration-versions`, cvBody(), {
      token: f.owner.token,
    });
    expect(missing.status).toBe(404);
    const ent = await api.get(`${P}/organizations/acme/entitlement-set`, { token: f.owner.token });
    expect(ent.body.data.attributes.operations).toBe(false);
  });
});
