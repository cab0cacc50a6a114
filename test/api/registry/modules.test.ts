import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessPort } from '../../../src/runner/in-process-port.js';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { EXECUTING, newConfiguration, P, queueRun, sendBytes } from '../../helpers/run-execution.js';

/**
 * The private module registry (issue 44, item 1): HCP's Private Registry Modules API as go-tfe
 * calls it (registry_module.go), the module registry protocol terraform follows (`modules.v1`,
 * versions, download with X-Terraform-Get) and who may do what.
 */

const ARCHIVE = gzipSync(Buffer.from('main.tf\0output "x" { value = 1 }'));
const moduleBody = (attributes: Record<string, unknown>) => ({ data: { type: 'registry-modules', attributes } });
const versionBody = (version: unknown) => ({ data: { type: 'registry-module-versions', attributes: { version } } });
const MOD = `${P}/organizations/acme/registry-modules/private/acme/vpc/aws`;
const V1 = '/api/registry/v1/modules';

describe('registry modules', () => {
  let clock: TestClock;
  let api: TestApi;
  let f: AccessFixture;
  const owner = () => ({ token: f.owner.token });

  beforeAll(async () => {
    clock = new TestClock();
    api = await TestApi.create({ settings: EXECUTING, clock });
    f = await accessFixture(api);
    expect((await api.createOrg('other', f.owner.token)).status).toBe(201);
  });
  afterAll(() => api.close());

  it('announces modules.v1 in the discovery document', async () => {
    const res = await api.get('/.well-known/terraform.json', { token: null });
    expect(res.body['modules.v1']).toBe('/api/registry/v1/modules/');
    expect(res.body['tfe.v2']).toBe('/api/v2/');
  });

  it('creates a private module as go-tfe does (registry-name and namespace default to private and the organization)', async () => {
    const res = await api.post(
      `${P}/organizations/acme/registry-modules`,
      moduleBody({ name: 'vpc', provider: 'aws' }),
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.id).toMatch(/^mod-[A-Za-z0-9]{16}$/);
    expect(res.body.data).toMatchObject({
      type: 'registry-modules',
      attributes: {
        name: 'vpc',
        provider: 'aws',
        namespace: 'acme',
        'registry-name': 'private',
        status: 'pending',
        'version-statuses': [],
        permissions: { 'can-delete': true, 'can-resync': true, 'can-retry': true },
      },
      relationships: { organization: { data: { id: 'acme', type: 'organizations' } } },
    });
    expect(res.body.data.attributes['created-at']).toBe(clock.now().toISOString());
    // The same name and provider again: 422 at the name; another provider is another module.
    const again = await api.post(
      `${P}/organizations/acme/registry-modules`,
      moduleBody({ name: 'vpc', provider: 'aws' }),
      owner(),
    );
    expect(again.status).toBe(422);
    expect(again.body.errors[0].source.pointer).toBe('/data/attributes/name');
    const gcp = await api.post(
      `${P}/organizations/acme/registry-modules`,
      moduleBody({ name: 'vpc', provider: 'google' }),
      owner(),
    );
    expect(gcp.status, gcp.text).toBe(201);
  });

  it('refuses bad input with 422s at their pointers, never a 500', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ provider: 'aws' }, '/data/attributes/name'],
      [{ name: 'bad name', provider: 'aws' }, '/data/attributes/name'],
      [{ name: 'x', provider: 'Bad provider' }, '/data/attributes/provider'],
      [{ name: 'x', provider: 'aws', 'registry-name': 'PRIVATE' }, '/data/attributes/registry-name'],
      [{ name: 'x', provider: 'aws', 'registry-name': 'public' }, '/data/attributes/namespace'],
      [
        { name: 'x', provider: 'aws', 'registry-name': 'private', namespace: 'elsewhere' },
        '/data/attributes/namespace',
      ],
      [{ name: 7, provider: 'aws' }, '/data/attributes/name'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await api.post(`${P}/organizations/acme/registry-modules`, moduleBody(attributes), owner());
      expect(res.status, JSON.stringify(attributes)).toBe(422);
      expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
    }
    const notJson = await api.request('POST', `${P}/organizations/acme/registry-modules`, {
      raw: '{',
      token: f.owner.token,
    });
    expect(notJson.status).toBe(400);
    const badVersion = await api.post(`${MOD}/versions`, versionBody('one'), owner());
    expect(badVersion.status).toBe(422);
    expect((await api.post(`${MOD}/versions`, versionBody(undefined), owner())).status).toBe(422);
  });

  it('creates a version pending with an upload link containing /object/; only its archive makes it ok', async () => {
    const res = await api.post(`${MOD}/versions`, versionBody('1.0.0'), owner());
    expect(res.status, res.text).toBe(201);
    const v = res.body.data;
    expect(v.id).toMatch(/^modver-/);
    expect(v.attributes).toMatchObject({ version: '1.0.0', status: 'pending', source: 'tfe-api' });
    expect(v.relationships['registry-module'].data.type).toBe('registry-modules');
    expect(v.links.upload).toContain('/object/');
    expect(v.links.upload).toMatch(/^http:\/\/berth\.test\//);

    // Pending: not listed by the protocol, and no download.
    const listed = await api.get(`${V1}/acme/vpc/aws/versions`, owner());
    expect(listed.status).toBe(200);
    expect(listed.body.modules[0].versions).toEqual([]);
    expect((await api.get(`${V1}/acme/vpc/aws/1.0.0/download`, owner())).status).toBe(404);

    // Not gzip: 422, still pending. Unsigned: 404.
    expect((await sendBytes(api.app, 'PUT', v.links.upload, Buffer.from('plain'))).status).toBe(422);
    const unsigned = v.links.upload.replace(/signature=[^&]+/, 'signature=x');
    expect((await sendBytes(api.app, 'PUT', unsigned, ARCHIVE)).status).toBe(404);
    expect((await api.get(`${MOD}/version?module_version=1.0.0`, owner())).body.data.attributes.status).toBe('pending');

    const up = await sendBytes(api.app, 'PUT', v.links.upload, ARCHIVE);
    expect(up.status, up.text).toBe(200);
    const read = await api.get(`${MOD}/version?module_version=1.0.0`, owner());
    expect(read.body.data.attributes).toMatchObject({ status: 'ok', size: ARCHIVE.length });
    expect(read.body.data.links).toBeUndefined();
    // A published version does not change.
    expect((await sendBytes(api.app, 'PUT', v.links.upload, ARCHIVE)).status).toBe(409);
    // The same version again: 422.
    expect((await api.post(`${MOD}/versions`, versionBody('1.0.0'), owner())).status).toBe(422);

    const mod = await api.get(MOD, owner());
    expect(mod.body.data.attributes.status).toBe('setup_complete');
    expect(mod.body.data.attributes['version-statuses']).toEqual([{ version: '1.0.0', status: 'ok' }]);
    const byId = await api.get(`${P}/registry-modules/${mod.body.data.id}`, owner());
    expect(byId.body.data.id).toBe(mod.body.data.id);
  });

  it('serves the protocol: versions, then a 204 download whose X-Terraform-Get expires by the clock', async () => {
    const listed = await api.get(`${V1}/acme/vpc/aws/versions`, owner());
    expect(listed.body).toEqual({ modules: [{ source: 'acme/vpc/aws', versions: [{ version: '1.0.0' }] }] });
    const dl = await api.get(`${V1}/acme/vpc/aws/1.0.0/download`, owner());
    expect(dl.status).toBe(204);
    const location = dl.headers.get('x-terraform-get')!;
    expect(location).toMatch(
      /^\/api\/v2\/registry-module-versions\/modver-[A-Za-z0-9]{16}\/object\/module\.tar\.gz\?expires=\d+&signature=/,
    );
    // Fetched without credentials.
    const got = await api.get(location, { token: null });
    expect(got.status).toBe(200);
    const bytes = await api.app.fetch(new Request(`http://berth.test${location}`));
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(ARCHIVE);
    // Its upload signature does not download, nor its download signature upload.
    expect((await sendBytes(api.app, 'PUT', location, ARCHIVE)).status).toBe(404);
    clock.advance(301_000);
    expect((await api.get(location, { token: null })).status).toBe(404);
    // Unknown module, version, or no token.
    expect((await api.get(`${V1}/acme/nope/aws/versions`, owner())).status).toBe(404);
    expect((await api.get(`${V1}/acme/vpc/aws/9.9.9/download`, owner())).status).toBe(404);
    expect((await api.get(`${V1}/acme/vpc/aws/versions`, { token: null })).status).toBe(401);
  });

  it('lists with paging, search and filters', async () => {
    const all = await api.get(`${P}/organizations/acme/registry-modules`, owner());
    expect(all.body.data.map((m: any) => `${m.attributes.name}/${m.attributes.provider}`)).toEqual([
      'vpc/aws',
      'vpc/google',
    ]);
    expect(all.body.meta.pagination['total-count']).toBe(2);
    const google = await api.get(`${P}/organizations/acme/registry-modules?filter[provider]=google`, owner());
    expect(google.body.data).toHaveLength(1);
    const q = await api.get(`${P}/organizations/acme/registry-modules?q=goo`, owner());
    expect(q.body.data).toHaveLength(1);
    const far = await api.get(`${P}/organizations/acme/registry-modules?page[number]=999`, owner());
    expect(far.body.data).toEqual([]);
    expect((await api.get(`${P}/organizations/other/registry-modules`, owner())).body.data).toEqual([]);
  });

  it('lets members read and download, and only owners, manage-modules teams and the organization token publish', async () => {
    const reader = await teamMember(f, 'readers');
    const publisher = await teamMember(f, 'publishers', { 'manage-modules': true });
    const outsider = await api.userToken('outsider');
    expect((await api.get(MOD, { token: reader.token })).body.data.attributes.permissions['can-delete']).toBe(false);
    expect((await api.get(`${V1}/acme/vpc/aws/1.0.0/download`, { token: reader.token })).status).toBe(204);
    expect((await api.post(`${MOD}/versions`, versionBody('1.1.0'), { token: reader.token })).status).toBe(404);
    expect(
      (
        await api.post(`${P}/organizations/acme/registry-modules`, moduleBody({ name: 'db', provider: 'aws' }), {
          token: reader.token,
        })
      ).status,
    ).toBe(404);
    expect((await api.get(MOD, { token: outsider.token })).status).toBe(404);
    expect((await api.get(`${V1}/acme/vpc/aws/versions`, { token: outsider.token })).status).toBe(404);
    const pub = await api.post(`${MOD}/versions`, versionBody('1.1.0'), { token: publisher.token });
    expect(pub.status, pub.text).toBe(201);
    const orgToken = await api.post(`${P}/organizations/acme/authentication-token`, undefined, owner());
    expect(orgToken.status, orgToken.text).toBe(201);
    const viaOrg = await api.post(`${MOD}/versions`, versionBody('1.2.0'), {
      token: orgToken.body.data.attributes.token,
    });
    expect(viaOrg.status, viaOrg.text).toBe(201);
    const statuses = (await api.get(MOD, owner())).body.data.attributes['version-statuses'];
    expect(statuses.map((s: any) => s.version)).toEqual(['1.2.0', '1.1.0', '1.0.0']);
  });

  it("lets a run's token of the organization read and download, and nothing else of the registry", async () => {
    const port = inProcessPort(api.store.db, clock, { runTokenTtlMs: 600_000 });
    await newConfiguration(f, f.web);
    const run = await queueRun(f, f.web);
    const claimed = await port.claim('test-executor');
    expect(claimed?.runId).toBe(run.id);
    const as = { token: claimed!.token };
    expect((await api.get(`${V1}/acme/vpc/aws/versions`, as)).status).toBe(200);
    expect((await api.get(`${V1}/acme/vpc/aws/1.0.0/download`, as)).status).toBe(204);
    expect((await api.get(MOD, as)).status).toBe(404);
    expect((await api.post(`${MOD}/versions`, versionBody('3.0.0'), as)).status).toBe(404);
    // Another organization's registry: 404.
    expect(
      (await api.post(`${P}/organizations/other/registry-modules`, moduleBody({ name: 'n', provider: 'aws' }), owner()))
        .status,
    ).toBe(201);
    expect((await api.get(`${V1}/other/n/aws/versions`, as)).status).toBe(404);
  });

  it('updates no-code and refuses VCS attributes', async () => {
    const res = await api.patch(MOD, moduleBody({ 'no-code': true }), owner());
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes['no-code']).toBe(true);
    expect((await api.patch(MOD, moduleBody({ 'vcs-repo': { identifier: 'a/b' } }), owner())).status).toBe(422);
  });

  it('deletes a version, a provider and a module by name, by HCP paths and go-tfe legacy ones', async () => {
    // Legacy create version, then delete it by HCP's path.
    const legacy = await api.post(`${P}/registry-modules/acme/vpc/aws/versions`, versionBody('2.0.0'), owner());
    expect(legacy.status, legacy.text).toBe(201);
    expect(legacy.body.data.links.upload).toContain('/object/');
    expect((await api.delete(`${MOD}/2.0.0`, owner())).status).toBe(204);
    expect((await api.delete(`${MOD}/2.0.0`, owner())).status).toBe(404);
    // Legacy version delete.
    expect((await api.post(`${P}/registry-modules/actions/delete/acme/vpc/aws/1.2.0`, undefined, owner())).status).toBe(
      204,
    );
    const left = (await api.get(MOD, owner())).body.data.attributes['version-statuses'].map((s: any) => s.version);
    expect(left).toEqual(['1.1.0', '1.0.0']);
    // Provider delete (HCP path): the google provider goes, aws stays.
    expect((await api.delete(`${P}/organizations/acme/registry-modules/private/acme/vpc/google`, owner())).status).toBe(
      204,
    );
    expect((await api.get(`${P}/organizations/acme/registry-modules/private/acme/vpc/google`, owner())).status).toBe(
      404,
    );
    // A reader may not delete.
    const reader = await teamMember(f, 'readers2');
    expect((await api.delete(MOD, { token: reader.token })).status).toBe(404);
    // Legacy delete by name: every provider, with versions and archives.
    expect((await api.post(`${P}/registry-modules/actions/delete/acme/vpc`, undefined, owner())).status).toBe(204);
    expect((await api.get(MOD, owner())).status).toBe(404);
    expect((await api.post(`${P}/registry-modules/actions/delete/acme/vpc`, undefined, owner())).status).toBe(404);
    expect(await api.store.db.selectFrom('registry_module_files').selectAll().execute()).toEqual([]);
    // Delete by name, HCP's path.
    await api.post(`${P}/organizations/acme/registry-modules`, moduleBody({ name: 'db', provider: 'aws' }), owner());
    expect((await api.delete(`${P}/organizations/acme/registry-modules/private/acme/db`, owner())).status).toBe(204);
    expect((await api.delete(`${P}/organizations/acme/registry-modules/nope/acme/db`, owner())).status).toBe(404);
  });

  it('keeps public modules as references without versions', async () => {
    const res = await api.post(
      `${P}/organizations/acme/registry-modules`,
      moduleBody({ name: 'vpc', provider: 'aws', 'registry-name': 'public', namespace: 'terraform-aws-modules' }),
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ 'registry-name': 'public', namespace: 'terraform-aws-modules' });
    const path = `${P}/organizations/acme/registry-modules/public/terraform-aws-modules/vpc/aws`;
    expect((await api.get(path, owner())).body.data.id).toBe(res.body.data.id);
    expect((await api.post(`${path}/versions`, versionBody('1.0.0'), owner())).status).toBe(422);
  });
});
