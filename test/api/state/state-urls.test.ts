import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import type { Store } from '../../../src/store/open.js';
import { createSiteAdminToken } from '../../../src/services/identity/tokens.js';
import { DEFAULT_SETTINGS } from '../../../src/services/context.js';
import { openTestStore } from '../../helpers/store.js';

/**
 * Hosted-state URLs are signed and short-lived (issue 19, item 5): they work without a token
 * until they expire, for the one version, file and use they were signed for, and never again
 * once expired, nor once the version or its workspace is gone.
 */

const P = '/api/v2';
const STATE = Buffer.from(
  JSON.stringify({
    version: 4,
    serial: 1,
    lineage: 'l',
    outputs: { o: { value: 'v', type: 'string' } },
    resources: [],
  }),
);
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const TTL = 60;

describe('signed hosted-state URLs', () => {
  let store: Store;
  let app: ReturnType<typeof createApp>;
  let token: string;
  let now = Date.parse('2026-03-01T12:00:00.000Z');
  const clock = { now: () => new Date(now) };

  const call = async (method: string, path: string, body?: unknown, auth = true) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/vnd.api+json' };
    if (auth) headers.Authorization = `Bearer ${token}`;
    const raw = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body);
    const res = await app.fetch(new Request(`http://berth.test${path}`, { method, headers, body: raw }));
    const text = await res.text();
    return { status: res.status, text, body: text.startsWith('{"data"') ? JSON.parse(text) : null };
  };
  /** Path and query of an absolute URL the API gave. */
  const local = (url: string) => {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  };
  const fetchUrl = (url: string, method = 'GET', body?: string) => call(method, local(url), body, false);

  let wsCount = 0;
  /** A workspace with a finalized state version (and its JSON state): its id and the version's attributes. */
  async function pushed() {
    const ws = await call('POST', `${P}/organizations/acme/workspaces`, {
      data: { type: 'workspaces', attributes: { name: `w${++wsCount}` } },
    });
    const wsId = ws.body.data.id as string;
    expect((await call('POST', `${P}/workspaces/${wsId}/actions/lock`, {})).status).toBe(200);
    const sv = await call('POST', `${P}/workspaces/${wsId}/state-versions`, {
      data: {
        type: 'state-versions',
        attributes: {
          serial: 1,
          md5: md5(STATE),
          state: STATE.toString('base64'),
          'json-state': Buffer.from('{"values":{}}').toString('base64'),
        },
      },
    });
    expect(sv.status, sv.text).toBe(201);
    return { wsId, id: sv.body.data.id as string, attributes: sv.body.data.attributes as Record<string, string> };
  }

  beforeAll(async () => {
    store = await openTestStore();
    app = createApp({
      db: store.db,
      clock,
      settings: { ...DEFAULT_SETTINGS, stateUrlTtlSeconds: TTL },
      onUnexpectedError: (e) => console.error(e),
    });
    token = (
      await createSiteAdminToken({ db: store.db, actor: LOCAL_SITE_ADMIN, clock, settings: DEFAULT_SETTINGS }, 't')
    ).token!;
    const org = await call('POST', `${P}/organizations`, {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
    });
    expect(org.status, org.text).toBe(201);
  });
  afterAll(() => store.close());

  it('carry an expiry TTL seconds ahead and a signature, and work without a token before it', async () => {
    const { attributes } = await pushed();
    const url = new URL(attributes['hosted-state-download-url']);
    expect([...url.searchParams.keys()]).toEqual(['expires', 'signature']);
    expect(Number(url.searchParams.get('expires'))).toBe(now / 1000 + TTL);
    expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const raw = await fetchUrl(attributes['hosted-state-download-url']);
    expect(raw.status).toBe(200);
    expect(raw.text).toBe(STATE.toString());
    expect((await fetchUrl(attributes['hosted-json-state-download-url'])).text).toBe('{"values":{}}');
    // A later read signs again, from its own time.
    now += 10_000;
    const { body } = await call('GET', `${P}/state-versions/${url.pathname.split('/')[4]}`);
    expect(Number(new URL(body.data.attributes['hosted-state-download-url']).searchParams.get('expires'))).toBe(
      now / 1000 + TTL,
    );
  });

  it('stop working once expired (404), until the version is read again', async () => {
    const { id, attributes } = await pushed();
    now += (TTL - 1) * 1000;
    expect((await fetchUrl(attributes['hosted-state-download-url'])).status).toBe(200);
    now += 1000;
    const expired = await fetchUrl(attributes['hosted-state-download-url']);
    expect(expired.status).toBe(404);
    expect(JSON.parse(expired.text).errors[0]).toMatchObject({ status: '404', title: 'not found' });
    expect((await fetchUrl(attributes['hosted-json-state-download-url'])).status).toBe(404);
    const fresh = (await call('GET', `${P}/state-versions/${id}`)).body.data.attributes;
    expect((await fetchUrl(fresh['hosted-state-download-url'])).text).toBe(STATE.toString());
  });

  it('refuse a tampered signature or expiry, another version, another file, another use (404)', async () => {
    const a = await pushed();
    const b = await pushed();
    const url = a.attributes['hosted-state-download-url'];
    const u = new URL(url);
    const sig = u.searchParams.get('signature')!;
    const tampered = url.replace(sig, `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    expect((await fetchUrl(tampered)).status).toBe(404);
    const later = url.replace(/expires=\d+/, `expires=${Number(u.searchParams.get('expires')) + 3600}`);
    expect((await fetchUrl(later)).status).toBe(404);
    expect((await fetchUrl(url.replace(a.id, b.id))).status).toBe(404);
    expect((await fetchUrl(url.replace('/content?', '/json-content?'))).status).toBe(404);
    expect((await fetchUrl(url.replace(/\?.*/, ''))).status).toBe(404);
    expect((await fetchUrl(url.replace(/\?.*/, '?secret=anything'))).status).toBe(404);
    expect((await fetchUrl(url.replace(/expires=\d+/, 'expires=1e12'))).status).toBe(404);
    // A download URL does not upload, and the untouched URL still works.
    expect((await fetchUrl(url, 'PUT', STATE.toString())).status).toBe(404);
    expect((await fetchUrl(url)).status).toBe(200);
  });

  it('an upload URL works until it expires; an expired one changes nothing', async () => {
    const ws = await call('POST', `${P}/organizations/acme/workspaces`, {
      data: { type: 'workspaces', attributes: { name: `w${++wsCount}` } },
    });
    const wsId = ws.body.data.id as string;
    await call('POST', `${P}/workspaces/${wsId}/actions/lock`, {});
    const create = () =>
      call('POST', `${P}/workspaces/${wsId}/state-versions`, {
        data: { type: 'state-versions', attributes: { serial: 1, md5: md5(STATE) } },
      });
    const late = (await create()).body.data;
    now += TTL * 1000;
    expect((await fetchUrl(late.attributes['hosted-state-upload-url'], 'PUT', STATE.toString())).status).toBe(404);
    const still = (await call('GET', `${P}/state-versions/${late.id}`)).body.data.attributes;
    expect(still.status).toBe('pending');
    // Read again, the version offers a fresh upload URL, which works.
    expect((await fetchUrl(still['hosted-state-upload-url'], 'PUT', STATE.toString())).status).toBe(200);
    expect((await call('GET', `${P}/state-versions/${late.id}`)).body.data.attributes.status).toBe('finalized');
  });

  it('stop working when the version or its workspace is deleted', async () => {
    const { wsId, attributes } = await pushed();
    expect((await fetchUrl(attributes['hosted-state-download-url'])).status).toBe(200);
    await call('POST', `${P}/workspaces/${wsId}/actions/unlock`);
    expect((await call('DELETE', `${P}/workspaces/${wsId}`)).status).toBe(204);
    expect((await fetchUrl(attributes['hosted-state-download-url'])).status).toBe(404);
  });

  it('are signed with one secret of the database, kept in its settings (every serve on it agrees)', async () => {
    const rows = await store.db.selectFrom('settings').selectAll().where('key', '=', 'state_url_key').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
