import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { standInPackage, throwawayKey, zipOf } from '../../helpers/provider-package.js';
import { addKey, publish, sendBytes } from './provider-helpers.js';

/**
 * `GET /organizations/:org/mirror-packages` (issue 44, berth's own): what an organization's mirror
 * holds, for `berth registry mirror list`: the pushed packages, paged and filtered, with their
 * hashes; not the organization's private providers (the registry's lists have them).
 */

const MIRROR = '/api/registry/mirror/acme';
const LIST = '/api/v2/organizations/acme/mirror-packages';
const H1 = 'h1:' + 'B'.repeat(43) + '=';
let f: AccessFixture;
const api = () => f.api;
const owner = () => f.owner.token;

async function push(hostname: string, namespace: string, type: string, version: string, platform: string) {
  const zip = zipOf({ [`terraform-provider-${type}_v${version}`]: Buffer.from(`${platform}\n`) });
  const file = `terraform-provider-${type}_${version}_${platform}.zip`;
  const res = await sendBytes(
    api(),
    'PUT',
    `${MIRROR}/${hostname}/${namespace}/${type}/${file}?hash=${encodeURIComponent(H1)}`,
    zip,
    owner(),
  );
  expect(res.status, res.text).toBe(201);
  return { zip, file };
}

beforeEach(async () => {
  f = await accessFixture(await TestApi.create({ clock: new TestClock() }));
});
afterEach(async () => f.api.close());

describe('the packages of a mirror', () => {
  it('lists every pushed package by provider, with its size and hashes; filters by hostname, namespace, type, version', async () => {
    const nullLinux = await push('registry.terraform.io', 'hashicorp', 'null', '3.2.1', 'linux_amd64');
    await push('registry.terraform.io', 'hashicorp', 'null', '3.2.1', 'darwin_arm64');
    await push('registry.terraform.io', 'hashicorp', 'null', '3.2.0', 'linux_amd64');
    await push('example.com', 'corp', 'thing', '1.0.0', 'linux_amd64');
    await push('registry.terraform.io', 'hashicorp', 'aws', '5.0.0', 'linux_amd64');
    // A private provider of acme: the mirror serves it, the list does not name it.
    const key = throwawayKey();
    await addKey(api(), 'acme', key);
    await publish(api(), 'acme', key, standInPackage(key, 'standin', '0.1.0'));

    const all = await api().get(LIST, { token: owner() });
    expect(all.status, all.text).toBe(200);
    expect(all.body.meta.pagination['total-count']).toBe(5);
    expect(
      all.body.data.map(
        (p: any) =>
          `${p.attributes.hostname}/${p.attributes.namespace}/${p.attributes['provider-type']} ${p.attributes.version} ${p.attributes.os}_${p.attributes.arch}`,
      ),
    ).toEqual([
      'example.com/corp/thing 1.0.0 linux_amd64',
      'registry.terraform.io/hashicorp/aws 5.0.0 linux_amd64',
      'registry.terraform.io/hashicorp/null 3.2.1 linux_amd64',
      'registry.terraform.io/hashicorp/null 3.2.1 darwin_arm64',
      'registry.terraform.io/hashicorp/null 3.2.0 linux_amd64',
    ]);
    const first = all.body.data[2];
    expect(first).toMatchObject({
      type: 'mirror-packages',
      id: expect.stringMatching(/^mirarch-/),
      attributes: {
        filename: nullLinux.file,
        size: nullLinux.zip.length,
        hashes: [H1, `zh:${createHash('sha256').update(nullLinux.zip).digest('hex')}`],
        'created-at': expect.stringMatching(/Z$/),
      },
      relationships: { organization: { data: { type: 'organizations', id: 'acme' } } },
    });

    const names = async (query: string) =>
      (await api().get(`${LIST}?${query}`, { token: owner() })).body.data.map((p: any) => p.attributes.filename);
    expect(await names('filter[hostname]=REGISTRY.terraform.io&filter[type]=null&filter[version]=3.2.1')).toEqual([
      'terraform-provider-null_3.2.1_linux_amd64.zip',
      'terraform-provider-null_3.2.1_darwin_arm64.zip',
    ]);
    expect(await names('filter[namespace]=corp')).toEqual(['terraform-provider-thing_1.0.0_linux_amd64.zip']);
    const paged = await api().get(`${LIST}?page[size]=2&page[number]=3`, { token: owner() });
    expect(paged.body.data.map((p: any) => p.attributes.version)).toEqual(['3.2.0']);
    expect(paged.body.meta.pagination).toMatchObject({ 'total-pages': 3, 'next-page': null });
  });

  it('an empty mirror lists nothing; an unknown filter is a 400 that names it', async () => {
    const empty = await api().get(LIST, { token: owner() });
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual([]);
    const typo = await api().get(`${LIST}?filter[hostnme]=x`, { token: owner() });
    expect(typo.status).toBe(400);
    expect(typo.body.errors[0]).toMatchObject({ source: { parameter: 'filter[hostnme]' } });
    const page = await api().get(`${LIST}?page[size]=0`, { token: owner() });
    expect(page.status).toBe(422);
  });

  it('members read it; callers outside the organization get its 404', async () => {
    await push('registry.terraform.io', 'hashicorp', 'null', '3.2.1', 'linux_amd64');
    const member = await teamMember(f, 'readers');
    const read = await api().get(LIST, { token: member.token });
    expect(read.status).toBe(200);
    expect(read.body.data).toHaveLength(1);
    const stranger = await api().userToken('stranger');
    const refused = await api().get(LIST, { token: stranger.token });
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('terraform-provider-null');
    expect((await api().get('/api/v2/organizations/nowhere/mirror-packages', { token: owner() })).status).toBe(404);
  });
});
