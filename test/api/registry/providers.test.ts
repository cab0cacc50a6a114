import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { standInPackage, throwawayKey } from '../../helpers/provider-package.js';
import { addKey, fetchBytes, PROVIDERS, publish, sendBytes } from './provider-helpers.js';

/**
 * The private provider registry (issue 44, item 2): HCP's GPG Keys, Private Registry Providers and
 * Provider Versions and Platforms APIs as go-tfe calls them, their signed file links, and
 * Terraform's provider registry protocol (providers.v1).
 */

const key = throwawayKey();
const pkg = standInPackage(key, 'standin', '1.2.0');
let clock: TestClock;
let f: AccessFixture;
const api = () => f.api;
const owner = () => f.owner.token;

beforeEach(async () => {
  clock = new TestClock();
  f = await accessFixture(await TestApi.create({ clock }));
});
afterEach(async () => f.api.close());

describe('GPG keys', () => {
  it('creates a key from its armor (key-id read from it), lists it by namespace, reads, moves and deletes it', async () => {
    const made = await addKey(api(), 'acme', key, owner());
    expect(made.type).toBe('gpg-keys');
    expect(made.attributes).toMatchObject({
      'key-id': key.keyId,
      namespace: 'acme',
      'ascii-armor': key.asciiArmor,
      'trust-signature': '',
    });
    const list = await api().get('/api/registry/private/v2/gpg-keys?filter%5Bnamespace%5D=acme', { token: owner() });
    expect(list.status).toBe(200);
    expect(list.body.data.map((k: any) => k.attributes['key-id'])).toEqual([key.keyId]);
    const read = await api().get(`/api/registry/private/v2/gpg-keys/acme/${key.keyId}`, { token: owner() });
    expect(read.status).toBe(200);
    expect(read.body.data.id).toBe(made.id);
    // Moving it to another namespace: the caller must manage that one too ("namespace not authorized").
    expect((await api().createOrg('other', owner())).status).toBe(201);
    const moved = await api().patch(
      `/api/registry/private/v2/gpg-keys/acme/${key.keyId}`,
      { data: { type: 'gpg-keys', attributes: { namespace: 'other' } } },
      { token: owner() },
    );
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.data.attributes.namespace).toBe('other');
    const stranger = await api().userToken('stranger');
    expect((await api().createOrg('mine', stranger.token)).status).toBe(201);
    const refused = await api().patch(
      `/api/registry/private/v2/gpg-keys/mine/${key.keyId}`,
      { data: { type: 'gpg-keys', attributes: { namespace: 'other' } } },
      { token: stranger.token },
    );
    expect(refused.status).toBe(404);
    const deleted = await api().delete(`/api/registry/private/v2/gpg-keys/other/${key.keyId}`, { token: owner() });
    expect(deleted.status).toBe(204);
    expect((await api().get(`/api/registry/private/v2/gpg-keys/other/${key.keyId}`, { token: owner() })).status).toBe(
      404,
    );
  });

  it('refuses bad input with JSON:API errors: no namespace filter, an armor that is no key, a key twice', async () => {
    const noFilter = await api().get('/api/registry/private/v2/gpg-keys', { token: owner() });
    expect(noFilter.status).toBe(400);
    const bad = await api().post(
      '/api/registry/private/v2/gpg-keys',
      { data: { type: 'gpg-keys', attributes: { namespace: 'acme', 'ascii-armor': 'not a key' } } },
      { token: owner() },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/ascii-armor');
    await addKey(api(), 'acme', key, owner());
    const twice = await api().post(
      '/api/registry/private/v2/gpg-keys',
      { data: { type: 'gpg-keys', attributes: { namespace: 'acme', 'ascii-armor': key.asciiArmor } } },
      { token: owner() },
    );
    expect(twice.status).toBe(422);
    expect((await api().get('/api/registry/private/v2/gpg-keys?filter[namespace]=acme', { token: null })).status).toBe(
      401,
    );
  });

  it('lets members read and only owners or "manage providers" teams add keys', async () => {
    const reader = await teamMember(f, 'readers');
    const publisher = await teamMember(f, 'publishers', { 'manage-providers': true });
    const denied = await api().post(
      '/api/registry/private/v2/gpg-keys',
      { data: { type: 'gpg-keys', attributes: { namespace: 'acme', 'ascii-armor': key.asciiArmor } } },
      { token: reader.token },
    );
    expect(denied.status).toBe(404);
    await addKey(api(), 'acme', key, publisher.token);
    const list = await api().get('/api/registry/private/v2/gpg-keys?filter[namespace]=acme', { token: reader.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const outsider = await api().userToken('outsider');
    expect(
      (await api().get('/api/registry/private/v2/gpg-keys?filter[namespace]=acme', { token: outsider.token })).status,
    ).toBe(404);
  });
});

describe('providers, versions and platforms', () => {
  it('publishes a provider as go-tfe does and serves it through providers.v1 with signed, tokenless files', async () => {
    await addKey(api(), 'acme', key, owner());
    const { base, version, platform } = await publish(api(), 'acme', key, pkg, owner());
    expect(version.attributes).toMatchObject({ version: '1.2.0', 'key-id': key.keyId, protocols: ['5.0'] });
    expect(platform.attributes).toMatchObject({
      os: pkg.os,
      arch: pkg.arch,
      shasum: pkg.shasum,
      filename: pkg.filename,
    });

    const provider = await api().get(base, { token: owner() });
    expect(provider.status).toBe(200);
    expect(provider.body.data.attributes).toMatchObject({
      name: 'standin',
      namespace: 'acme',
      'registry-name': 'private',
    });
    expect(provider.body.data.relationships['registry-provider-versions'].data).toEqual([
      { type: 'registry-provider-versions', id: version.id },
    ]);
    const v = await api().get(`${base}/versions/1.2.0`, { token: owner() });
    expect(v.body.data.attributes['shasums-uploaded']).toBe(true);
    expect(v.body.data.attributes['shasums-sig-uploaded']).toBe(true);
    expect(v.body.data.links['shasums-upload']).toBeUndefined();
    expect((await fetchBytes(api(), v.body.data.links['shasums-download'])).body.equals(pkg.shasums)).toBe(true);
    const pl = await api().get(`${base}/versions/1.2.0/platforms/${pkg.os}/${pkg.arch}`, { token: owner() });
    expect(pl.body.data.attributes['provider-binary-uploaded']).toBe(true);
    expect((await fetchBytes(api(), pl.body.data.links['provider-binary-download'])).body.equals(pkg.zip)).toBe(true);

    const discovery = await api().get('/.well-known/terraform.json', { token: null });
    expect(discovery.body['providers.v1']).toBe('/api/registry/v1/providers/');
    const versions = await api().get('/api/registry/v1/providers/acme/standin/versions', { token: owner() });
    expect(versions.status).toBe(200);
    expect(versions.body).toEqual({
      versions: [{ version: '1.2.0', protocols: ['5.0'], platforms: [{ os: pkg.os, arch: pkg.arch }] }],
    });
    const dl = await api().get(`/api/registry/v1/providers/acme/standin/1.2.0/download/${pkg.os}/${pkg.arch}`, {
      token: owner(),
    });
    expect(dl.status, dl.text).toBe(200);
    expect(dl.body).toMatchObject({ protocols: ['5.0'], filename: pkg.filename, shasum: pkg.shasum });
    expect(dl.body.signing_keys.gpg_public_keys).toEqual([
      { key_id: key.keyId, ascii_armor: key.asciiArmor, trust_signature: '', source: '', source_url: null },
    ]);
    const zip = await fetchBytes(api(), dl.body.download_url);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-length')).toBe(String(pkg.zip.length));
    expect(zip.body.equals(pkg.zip)).toBe(true);
    expect((await fetchBytes(api(), dl.body.shasums_url)).body.equals(pkg.shasums)).toBe(true);
    expect((await fetchBytes(api(), dl.body.shasums_signature_url)).body.equals(pkg.signature)).toBe(true);

    // Signed URLs expire by the clock; an altered one is unknown.
    clock.advance(11 * 60 * 1000);
    expect((await fetchBytes(api(), dl.body.download_url)).status).toBe(404);
    expect(
      (await fetchBytes(api(), `${dl.body.shasums_url.split('?')[0]}?expires=99999999999&signature=x`)).status,
    ).toBe(404);

    // Deleting the provider removes its versions, platforms and archives.
    expect((await api().delete(base, { token: owner() })).status).toBe(204);
    expect((await api().get(`${base}/versions/1.2.0`, { token: owner() })).status).toBe(404);
    const left = await api().store.db.selectFrom('registry_archives').select('id').execute();
    expect(left).toEqual([]);
  });

  it('checks uploads: a wrong archive, a second upload, an empty or malformed SHA256SUMS', async () => {
    await addKey(api(), 'acme', key, owner());
    await api().post(
      PROVIDERS('acme'),
      {
        data: {
          type: 'registry-providers',
          attributes: { name: 'standin', namespace: 'acme', 'registry-name': 'private' },
        },
      },
      { token: owner() },
    );
    const base = `${PROVIDERS('acme')}/private/acme/standin`;
    const v = await api().post(
      `${base}/versions`,
      {
        data: {
          type: 'registry-provider-versions',
          attributes: { version: '1.2.0', 'key-id': key.keyId, protocols: ['5.0'] },
        },
      },
      { token: owner() },
    );
    const links = v.body.data.links;
    expect((await sendBytes(api(), 'PUT', links['shasums-upload'], Buffer.from('nonsense'))).status).toBe(422);
    expect((await sendBytes(api(), 'PUT', links['shasums-upload'], pkg.shasums)).status).toBe(200);
    expect((await sendBytes(api(), 'PUT', links['shasums-upload'], pkg.shasums)).status).toBe(409);
    const p = await api().post(
      `${base}/versions/1.2.0/platforms`,
      {
        data: {
          type: 'registry-provider-platforms',
          attributes: { os: pkg.os, arch: pkg.arch, shasum: pkg.shasum, filename: pkg.filename },
        },
      },
      { token: owner() },
    );
    const upload = p.body.data.links['provider-binary-upload'];
    const wrong = await sendBytes(api(), 'PUT', upload, Buffer.from('another archive'));
    expect(wrong.status).toBe(422);
    expect(wrong.json.errors[0].detail).toMatch(/SHA-256/);
    expect(await api().store.db.selectFrom('registry_archives').select('id').execute()).toEqual([]);
    expect((await sendBytes(api(), 'PUT', upload, pkg.zip)).status).toBe(200);
    expect((await sendBytes(api(), 'PUT', upload, pkg.zip)).status).toBe(409);
    // Not installable until the signature is there too.
    const versions = await api().get('/api/registry/v1/providers/acme/standin/versions', { token: owner() });
    expect(versions.body.versions).toEqual([]);
  });

  it('refuses bad input: names, versions, unknown keys, duplicates, another namespace, public versions', async () => {
    const create = (attributes: Record<string, unknown>) =>
      api().post(PROVIDERS('acme'), { data: { type: 'registry-providers', attributes } }, { token: owner() });
    expect((await create({ name: 'Bad Name', namespace: 'acme', 'registry-name': 'private' })).status).toBe(422);
    expect((await create({ name: 'aws', namespace: 'hashicorp', 'registry-name': 'private' })).status).toBe(422);
    expect((await create({ name: 'x', namespace: 'acme', 'registry-name': 'secret' })).status).toBe(422);
    expect((await create({ name: 'aws', namespace: 'hashicorp', 'registry-name': 'public' })).status).toBe(201);
    expect((await create({ name: 'standin', namespace: 'acme', 'registry-name': 'private' })).status).toBe(201);
    expect((await create({ name: 'standin', namespace: 'acme', 'registry-name': 'private' })).status).toBe(422);
    const list = await api().get(`${PROVIDERS('acme')}?filter[registry_name]=public`, { token: owner() });
    expect(list.body.data.map((p: any) => p.attributes.name)).toEqual(['aws']);
    const base = `${PROVIDERS('acme')}/private/acme/standin`;
    const version = (attributes: Record<string, unknown>) =>
      api().post(`${base}/versions`, { data: { type: 'registry-provider-versions', attributes } }, { token: owner() });
    expect((await version({ version: 'one', 'key-id': key.keyId, protocols: ['5.0'] })).status).toBe(422);
    expect((await version({ version: '1.0.0', 'key-id': key.keyId, protocols: ['5.0'] })).status).toBe(422);
    await addKey(api(), 'acme', key, owner());
    expect((await version({ version: '1.0.0', 'key-id': key.keyId, protocols: [] })).status).toBe(422);
    expect((await version({ version: '1.0.0', 'key-id': key.keyId, protocols: ['5.0'] })).status).toBe(201);
    expect((await version({ version: '1.0.0', 'key-id': key.keyId, protocols: ['5.0'] })).status).toBe(422);
    const pub = await api().post(
      `${PROVIDERS('acme')}/public/hashicorp/aws/versions`,
      {
        data: {
          type: 'registry-provider-versions',
          attributes: { version: '1.0.0', 'key-id': key.keyId, protocols: ['5.0'] },
        },
      },
      { token: owner() },
    );
    expect(pub.status).toBe(422);
    const platform = await api().post(
      `${base}/versions/1.0.0/platforms`,
      {
        data: {
          type: 'registry-provider-platforms',
          attributes: { os: 'linux', arch: 'amd64', shasum: 'nope', filename: 'x.zip' },
        },
      },
      { token: owner() },
    );
    expect(platform.status).toBe(422);
    expect(platform.body.errors[0].source.pointer).toBe('/data/attributes/shasum');
    expect((await api().get(`${PROVIDERS('acme')}/secret/acme/standin`, { token: owner() })).status).toBe(422);
  });

  it('lets members read and only owners and "manage providers" teams publish', async () => {
    const reader = await teamMember(f, 'readers');
    const made = await api().post(
      PROVIDERS('acme'),
      {
        data: {
          type: 'registry-providers',
          attributes: { name: 'standin', namespace: 'acme', 'registry-name': 'private' },
        },
      },
      { token: reader.token },
    );
    expect(made.status).toBe(404);
    const publisher = await teamMember(f, 'publishers', { 'manage-providers': true });
    await addKey(api(), 'acme', key, publisher.token);
    const { base } = await publish(api(), 'acme', key, pkg, publisher.token);
    const read = await api().get(base, { token: reader.token });
    expect(read.status).toBe(200);
    expect(read.body.data.attributes.permissions['can-delete']).toBe(false);
    const v = await api().get(`${base}/versions/1.2.0`, { token: reader.token });
    expect(v.body.data.attributes.permissions).toEqual({ 'can-delete': false, 'can-upload-asset': false });
    expect((await api().delete(base, { token: reader.token })).status).toBe(404);
    const dl = await api().get(`/api/registry/v1/providers/acme/standin/1.2.0/download/${pkg.os}/${pkg.arch}`, {
      token: reader.token,
    });
    expect(dl.status).toBe(200);
    const outsider = await api().userToken('outsider');
    expect(
      (await api().get('/api/registry/v1/providers/acme/standin/versions', { token: outsider.token })).status,
    ).toBe(404);
    expect((await api().get(base, { token: outsider.token })).status).toBe(404);
  });
});
