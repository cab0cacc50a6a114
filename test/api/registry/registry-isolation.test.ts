import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { standInPackage, throwawayKey, zipOf } from '../../helpers/provider-package.js';
import { addKey, fetchBytes, publish, sendBytes } from './provider-helpers.js';

/**
 * The registry between two organizations, beyond test/reliability/tenant-isolation.test.ts (whose
 * signed cases can use A's signatures only): B's own valid signed URLs, at A's ids, open nothing;
 * A's URLs unsigned, forged or expired open nothing; B's mirror never serves A's providers; the
 * GPG keys' namespaces; and B's refused writes leave nothing in A's audit trail.
 */

const ORIGIN = 'http://berth.test';
const query = (url: string) => new URL(url, ORIGIN).search;
const pathOf = (url: string) => new URL(url, ORIGIN).pathname;

interface Published {
  token: string;
  keyId: string;
  moduleVersionId: string;
  moduleArchive: Buffer;
  moduleUpload: string;
  moduleDownload: string;
  versionId: string;
  platformId: string;
  shasums: { upload: string; download: string };
  shasumsSig: { upload: string; download: string };
  binaryUpload: string;
  archiveDownload: string;
  zip: Buffer;
  mirrorDownload: string;
}

/** The version each organization pushes into its mirror, at the same hostname, namespace and type. */
const MIRRORED = { acme: '2.0.0', globex: '3.0.0' } as const;

async function publishAll(api: TestApi, org: keyof typeof MIRRORED): Promise<Published> {
  const owner = await api.userToken(`${org}-owner`);
  const t = { token: owner.token };
  expect((await api.createOrg(org, owner.token)).status).toBe(201);
  // The module, its version and its archive.
  const mod = `/api/v2/organizations/${org}/registry-modules`;
  expect(
    (await api.post(mod, { data: { type: 'registry-modules', attributes: { name: 'net', provider: 'aws' } } }, t))
      .status,
  ).toBe(201);
  const version = await api.post(
    `${mod}/private/${org}/net/aws/versions`,
    { data: { type: 'registry-module-versions', attributes: { version: '1.0.0' } } },
    t,
  );
  expect(version.status, version.text).toBe(201);
  const moduleArchive = gzipSync(Buffer.from(`output "${org}" { value = "${org}-module" }`));
  expect((await sendBytes(api, 'PUT', version.body.data.links.upload, moduleArchive)).status).toBe(200);
  const download = await api.get(`/api/registry/v1/modules/${org}/net/aws/1.0.0/download`, t);
  expect(download.status).toBe(204);

  // A private provider, published as go-tfe does.
  const key = throwawayKey(`${org} <${org}@berth.test>`);
  await addKey(api, org, key, owner.token);
  const pkg = standInPackage(key, 'tool', '1.0.0');
  const { base, version: v, platform } = await publish(api, org, key, pkg, owner.token);
  const read = (await api.get(`${base}/versions/1.0.0`, t)).body.data.links;
  const archiveDownload = (await api.get(`${base}/versions/1.0.0/platforms/${pkg.os}/${pkg.arch}`, t)).body.data.links[
    'provider-binary-download'
  ];

  // A package pushed into the mirror.
  const mirror = `/api/registry/mirror/${org}/mirror.test/vendor/relay`;
  const mirrored = MIRRORED[org];
  const zip = zipOf({ [`terraform-provider-relay_v${mirrored}`]: Buffer.from(`#!/bin/sh\n# ${org}\n`) });
  expect(
    (await sendBytes(api, 'PUT', `${mirror}/terraform-provider-relay_${mirrored}_linux_amd64.zip`, zip, owner.token))
      .status,
  ).toBe(201);
  const mirrorDownload = (await api.get(`${mirror}/${mirrored}.json`, t)).body.archives.linux_amd64.url;
  return {
    token: owner.token,
    keyId: key.keyId,
    moduleVersionId: version.body.data.id,
    moduleArchive,
    moduleUpload: version.body.data.links.upload,
    moduleDownload: download.headers.get('x-terraform-get')!,
    versionId: v.id,
    platformId: platform.id,
    shasums: { upload: v.links['shasums-upload'], download: read['shasums-download'] },
    shasumsSig: { upload: v.links['shasums-sig-upload'], download: read['shasums-sig-download'] },
    binaryUpload: platform.links['provider-binary-upload'],
    archiveDownload,
    zip: pkg.zip,
    mirrorDownload,
  };
}

describe('the registry between two organizations', () => {
  let clock: TestClock;
  let api: TestApi;
  let a: Published;
  let b: Published;

  beforeAll(async () => {
    clock = new TestClock();
    api = await TestApi.create({ clock });
    a = await publishAll(api, 'acme');
    b = await publishAll(api, 'globex');
  });
  afterAll(() => api.close());

  /**
   * Each signed route: A's URL and the same route's URL of B (paths with their signed queries),
   * and a body its upload would take (so that B's own upload gets as far as "already uploaded").
   */
  const signedRoutes = () => {
    const gz = gzipSync(Buffer.from('intruder'));
    const sums = Buffer.from(`${'0'.repeat(64)}  intruder.zip\n`);
    const any = Buffer.from('PK intruder');
    return [
      { method: 'PUT', a: a.moduleUpload, b: b.moduleUpload, put: gz },
      { method: 'GET', a: a.moduleDownload, b: b.moduleDownload },
      { method: 'PUT', a: a.shasums.upload, b: b.shasums.upload, put: sums },
      { method: 'GET', a: a.shasums.download, b: b.shasums.download },
      { method: 'PUT', a: a.shasumsSig.upload, b: b.shasumsSig.upload, put: any },
      { method: 'GET', a: a.shasumsSig.download, b: b.shasumsSig.download },
      { method: 'PUT', a: a.binaryUpload, b: b.binaryUpload, put: any },
      { method: 'GET', a: a.archiveDownload, b: b.archiveDownload },
      { method: 'GET', a: a.mirrorDownload, b: b.mirrorDownload },
    ].map((r) => ({ ...r, a: pathOf(r.a) + query(r.a), b: pathOf(r.b) + query(r.b) }));
  };
  type Signed = ReturnType<typeof signedRoutes>[number];
  const call = (r: Signed, url: string) =>
    r.method === 'PUT' ? sendBytes(api, 'PUT', url, r.put!) : fetchBytes(api, url);
  const text = (res: { text?: string; body?: unknown }) =>
    res.text ?? (Buffer.isBuffer(res.body) ? res.body.toString('latin1') : '');

  it("answers 404 to B's own valid signatures at A's ids, and they still work at B's", async () => {
    for (const r of signedRoutes()) {
      const res = await call(r, pathOf(r.a) + query(r.b));
      expect(res.status, `${r.method} ${pathOf(r.a)} with B's signature`).toBe(404);
      for (const secret of [a.moduleArchive, a.zip])
        expect(text(res).includes(secret.toString('latin1')), `${r.method} ${pathOf(r.a)}`).toBe(false);
      // B's URL itself is valid: a download answers, an upload finds its file already there.
      expect((await call(r, r.b)).status, `${r.method} ${pathOf(r.b)} of B`).toBe(r.method === 'GET' ? 200 : 409);
    }
  });

  it("answers 404 to A's URLs unsigned, forged, with another expiry, or expired", async () => {
    const future = Math.floor(clock.now().getTime() / 1000) + 60;
    for (const r of signedRoutes()) {
      const path = pathOf(r.a);
      const signature = new URLSearchParams(query(r.a)).get('signature')!;
      for (const q of [
        '',
        `?expires=${future}&signature=${'A'.repeat(43)}`,
        `?expires=${future}&signature=${signature}`,
      ])
        expect((await call(r, path + q)).status, `${r.method} ${path}${q}`).toBe(404);
    }
    // Past their expiry (the module's download: 5 minutes; the provider files: 10), by the app's clock.
    clock.advance(11 * 60 * 1000);
    try {
      for (const r of signedRoutes().filter((x) => x.method === 'GET'))
        expect((await call(r, r.a)).status, `${r.method} ${pathOf(r.a)} expired`).toBe(404);
    } finally {
      clock.advance(-11 * 60 * 1000);
    }
  });

  it("never serves A's private provider or pushed package from B's mirror, under any hostname", async () => {
    const t = { token: b.token };
    const aArchives = [a.mirrorDownload, a.archiveDownload].map((u) => pathOf(u).split('/')[5]);
    for (const host of ['berth.test', 'mirror.test', 'registry.terraform.io'])
      for (const [namespace, type] of [
        ['acme', 'tool'],
        ['vendor', 'relay'],
      ])
        for (const file of ['index.json', '1.0.0.json', `${MIRRORED.acme}.json`, `${MIRRORED.globex}.json`]) {
          const path = `/api/registry/mirror/globex/${host}/${namespace}/${type}/${file}`;
          const res = await api.get(path, t);
          for (const id of aArchives) expect(res.text, path).not.toContain(id);
          // B's own push is at mirror.test/vendor/relay (its version only); nothing else is there for B.
          const own = host === 'mirror.test' && namespace === 'vendor';
          if (own && file === 'index.json') expect(res.body, path).toEqual({ versions: { [MIRRORED.globex]: {} } });
          else if (own && file === `${MIRRORED.globex}.json`) expect(res.status, path).toBe(200);
          else expect(res.status, path).toBe(404);
        }
    expect((await api.get('/api/registry/v1/providers/acme/tool/versions', t)).status).toBe(404);
  });

  it("refuses a GPG key list naming A beside B, and moves B's key into A as into no organization", async () => {
    const t = { token: b.token };
    const mixed = await api.get('/api/registry/private/v2/gpg-keys?filter%5Bnamespace%5D=globex,acme', t);
    expect(mixed.status).toBe(404);
    expect(mixed.text).not.toContain(a.keyId);
    const move = (namespace: string) =>
      api.patch(
        `/api/registry/private/v2/gpg-keys/globex/${b.keyId}`,
        { data: { type: 'gpg-keys', attributes: { namespace } } },
        t,
      );
    const intoA = await move('acme');
    const intoNone = await move('no-such-org');
    expect(intoA.status).toBe(403);
    expect(intoA.body).toEqual(intoNone.body);
    const keys = await api.get('/api/registry/private/v2/gpg-keys?filter%5Bnamespace%5D=acme', { token: a.token });
    expect(keys.body.data.map((k: any) => k.attributes['key-id'])).toEqual([a.keyId]);
  });

  it("leaves nothing in A's audit trail for B's refused writes at A's registry", async () => {
    const trail = async () =>
      (await api.get('/api/v2/organizations/acme/audit-trail?page%5Bsize%5D=100', { token: a.token })).body.data;
    const before = await trail();
    const t = { token: b.token };
    const mod = '/api/v2/organizations/acme/registry-modules';
    const prov = '/api/v2/organizations/acme/registry-providers';
    const refused = [
      await api.post(mod, { data: { type: 'registry-modules', attributes: { name: 'x', provider: 'aws' } } }, t),
      await api.delete(`${mod}/private/acme/net/aws/1.0.0`, t),
      await api.post(
        `${mod}/private/acme/net/aws/versions`,
        { data: { type: 'registry-module-versions', attributes: { version: '9.0.0' } } },
        t,
      ),
      await api.post('/api/v2/registry-modules/actions/delete/acme/net', undefined, t),
      await api.delete(`${prov}/private/acme/tool/versions/1.0.0`, t),
      await api.delete(`${prov}/private/acme/tool`, t),
    ];
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 404));
    expect(await trail()).toEqual(before);
  });
});
