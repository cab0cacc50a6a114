import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { standInPackage, throwawayKey, zipOf } from '../../helpers/provider-package.js';
import { addKey, fetchBytes, publish, sendBytes } from './provider-helpers.js';

/**
 * An organization's provider network mirror (issue 44, item 3): Terraform's mirror protocol
 * (`index.json`, `VERSION.json` with `archives` and `zh:` hashes, application/json) over pushed
 * packages and the organization's private providers; berth's push and delete.
 */

const MIRROR = '/api/registry/mirror/acme';
const H1 = 'h1:' + 'A'.repeat(43) + '=';
let f: AccessFixture;
const api = () => f.api;
const owner = () => f.owner.token;

beforeEach(async () => {
  f = await accessFixture(await TestApi.create({ clock: new TestClock() }));
});
afterEach(async () => f.api.close());

describe('the provider network mirror', () => {
  it('serves a pushed package (several chunks) with its h1: and zh: hashes, and replaces it on a second push', async () => {
    // Larger than two chunks of the archive store: it must come back byte for byte.
    const zip = zipOf({ 'terraform-provider-null_v3.2.1': randomBytes(2 * 1024 * 1024 + 12345) });
    const file = 'terraform-provider-null_3.2.1_linux_amd64.zip';
    const push = await sendBytes(
      api(),
      'PUT',
      `${MIRROR}/registry.terraform.io/hashicorp/null/${file}?hash=${encodeURIComponent(H1)}`,
      zip,
      owner(),
    );
    expect(push.status, push.text).toBe(201);
    const zh = `zh:${createHash('sha256').update(zip).digest('hex')}`;
    expect(push.json).toMatchObject({
      version: '3.2.1',
      os: 'linux',
      arch: 'amd64',
      size: zip.length,
      hashes: [H1, zh],
    });

    const index = await api().get(`${MIRROR}/registry.terraform.io/hashicorp/null/index.json`, { token: owner() });
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('application/json');
    expect(index.body).toEqual({ versions: { '3.2.1': {} } });
    const version = await api().get(`${MIRROR}/registry.terraform.io/hashicorp/null/3.2.1.json`, { token: owner() });
    expect(version.status).toBe(200);
    const archive = version.body.archives.linux_amd64;
    expect(archive.hashes).toEqual([H1, zh]);
    expect(archive.url).toMatch(
      /^\/api\/registry\/files\/archives\/rarch-\w+\/terraform-provider-null_3\.2\.1_linux_amd64\.zip\?expires=/,
    );
    // The archive needs no token (Terraform sends none for it).
    const got = await fetchBytes(api(), archive.url);
    expect(got.status).toBe(200);
    expect(got.body.equals(zip)).toBe(true);

    const again = await sendBytes(api(), 'PUT', `${MIRROR}/registry.terraform.io/hashicorp/null/${file}`, zip, owner());
    expect(again.status).toBe(200);
    expect(again.json.replaced).toBe(true);
    const archives = await api().store.db.selectFrom('registry_archives').select('id').execute();
    expect(archives).toHaveLength(1);
    expect(
      (await api().delete(`${MIRROR}/registry.terraform.io/hashicorp/null/${file}`, { token: owner() })).status,
    ).toBe(204);
    expect(
      (await api().get(`${MIRROR}/registry.terraform.io/hashicorp/null/index.json`, { token: owner() })).status,
    ).toBe(404);
    expect(await api().store.db.selectFrom('registry_archive_chunks').select('part').execute()).toEqual([]);
  });

  it("serves the organization's private providers under any hostname, by their zh: hash", async () => {
    const key = throwawayKey();
    const pkg = standInPackage(key, 'standin', '0.1.0');
    await addKey(api(), 'acme', key, owner());
    await publish(api(), 'acme', key, pkg, owner());
    const index = await api().get(`${MIRROR}/berth.example.com/acme/standin/index.json`, { token: owner() });
    expect(index.body).toEqual({ versions: { '0.1.0': {} } });
    const version = await api().get(`${MIRROR}/localhost:8443/acme/standin/0.1.0.json`, { token: owner() });
    expect(version.body.archives[`${pkg.os}_${pkg.arch}`].hashes).toEqual([`zh:${pkg.shasum}`]);
    expect((await fetchBytes(api(), version.body.archives[`${pkg.os}_${pkg.arch}`].url)).body.equals(pkg.zip)).toBe(
      true,
    );
  });

  it('refuses bad pushes with JSON:API errors and lets only publishers push; members read', async () => {
    const zip = zipOf({ 'terraform-provider-null_v1.0.0': Buffer.from('x') });
    const url = (file: string, q = '') => `${MIRROR}/registry.terraform.io/hashicorp/null/${file}${q}`;
    const good = 'terraform-provider-null_1.0.0_linux_amd64.zip';
    const badName = await sendBytes(api(), 'PUT', url('null.zip'), zip, owner());
    expect(badName.status).toBe(422);
    expect(badName.json.errors[0].detail).toMatch(/terraform-provider-null_VERSION_OS_ARCH\.zip/);
    expect(
      (await sendBytes(api(), 'PUT', url('terraform-provider-other_1.0.0_linux_amd64.zip'), zip, owner())).status,
    ).toBe(422);
    expect((await sendBytes(api(), 'PUT', url(good, '?hash=md5:abc'), zip, owner())).status).toBe(422);
    const wrongZh = await sendBytes(api(), 'PUT', url(good, `?hash=zh:${'0'.repeat(64)}`), zip, owner());
    expect(wrongZh.status).toBe(422);
    expect(await api().store.db.selectFrom('registry_archives').select('id').execute()).toEqual([]);
    const reader = await teamMember(f, 'readers');
    expect((await sendBytes(api(), 'PUT', url(good), zip, reader.token)).status).toBe(404);
    expect((await sendBytes(api(), 'PUT', url(good), zip, null)).status).toBe(401);
    const publisher = await teamMember(f, 'publishers', { 'manage-providers': true });
    expect((await sendBytes(api(), 'PUT', url(good), zip, publisher.token)).status).toBe(201);
    expect((await api().get(url('index.json'), { token: reader.token })).status).toBe(200);
    expect((await api().get(url('index.json'), { token: null })).status).toBe(401);
    expect((await api().get(url('2.0.0.json'), { token: reader.token })).status).toBe(404);
    expect((await api().get(url('nothing'), { token: reader.token })).status).toBe(404);
    const outsider = await api().userToken('outsider');
    expect((await api().get(url('index.json'), { token: outsider.token })).status).toBe(404);
    expect((await api().get(`${MIRROR}/Bad Host!/hashicorp/null/index.json`, { token: owner() })).status).toBe(404);
  });
});
