import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi, type ApiResponse } from '../../helpers/api.js';

const JSONAPI = 'application/vnd.api+json';
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const orgBody = (attributes: Record<string, unknown>, type = 'organizations') => ({ data: { type, attributes } });

describe('organizations', () => {
  let api: TestApi;
  /** Every response of this file, to check the Content-Type of all of them at the end. */
  const seen: { method: string; path: string; res: ApiResponse }[] = [];

  const orgCount = async () =>
    Number(
      (
        await api.store.db
          .selectFrom('organizations')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Posts an org create and expects exactly one 422 for `pointer`; nothing must be created. */
  async function expectRejected(attributes: Record<string, unknown>, pointer: string, detail?: string) {
    const before = await orgCount();
    const res = await api.post('/api/v2/organizations', orgBody(attributes));
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ status: '422', title: 'invalid attribute', source: { pointer } });
    if (detail) expect(res.body.errors[0].detail).toBe(detail);
    expect(await orgCount()).toBe(before);
    return res;
  }

  beforeAll(async () => {
    api = await TestApi.create();
    const request = api.request.bind(api);
    api.request = async (method, path, options) => {
      const res = await request(method, path, options);
      seen.push({ method, path, res });
      return res;
    };
  });
  afterAll(() => api.close());

  describe('create and read', () => {
    let created: ApiResponse;
    beforeAll(async () => {
      created = await api.createOrg('acme');
    });

    it('creates an organization with its document', () => {
      expect(created.status).toBe(201);
      const { data } = created.body;
      expect(data.id).toBe('acme');
      expect(data.type).toBe('organizations');
      expect(data.attributes).toMatchObject({
        name: 'acme',
        email: 'acme@example.com',
        'allow-force-delete-workspaces': false,
        'assessments-enforced': false,
        'default-execution-mode': 'remote',
      });
      expect(data.attributes['created-at']).toMatch(ISO_MS);
      expect(typeof data.attributes.permissions).toBe('object');
      expect(data.attributes.permissions).not.toBeNull();
      expect(data.relationships['default-project'].data).toEqual({
        type: 'projects',
        id: expect.stringMatching(/^prj-[A-Za-z0-9]{16}$/),
      });
    });

    it('reads it back identically', async () => {
      const res = await api.get('/api/v2/organizations/acme');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(created.body.data);
      expect(res.body.included).toBeUndefined();
    });

    it.each(['default-project', 'default_project'])(
      'sideloads the default project with include=%s',
      async (include) => {
        const res = await api.get(`/api/v2/organizations/acme?include=${include}`);
        expect(res.status).toBe(200);
        const projectId = created.body.data.relationships['default-project'].data.id;
        expect(res.body.included).toHaveLength(1);
        expect(res.body.included[0]).toMatchObject({
          type: 'projects',
          id: projectId,
          attributes: { name: 'Default Project' },
        });
      },
    );

    it('rejects an unknown include value with 400', async () => {
      const res = await api.get('/api/v2/organizations/acme?include=bogus');
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        status: '400',
        title: 'bad request',
        detail: 'Invalid include parameter',
      });
    });

    it('creates the owners team, with the site-administrator user who created the org as its member', async () => {
      const teams = await api.store.db
        .selectFrom('teams')
        .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
        .select(['teams.id', 'teams.name', 'teams.is_owners'])
        .where('organizations.name', '=', 'acme')
        .execute();
      expect(teams).toEqual([{ id: expect.any(String), name: 'owners', is_owners: 1 }]);
      const members = await api.store.db
        .selectFrom('team_members')
        .selectAll()
        .where('team_id', '=', teams[0].id)
        .execute();
      const admin = (await api.get('/api/v2/account/details')).body.data;
      expect(admin.attributes.username).toBe('admin');
      expect(members).toEqual([{ team_id: teams[0].id, user_id: admin.id }]);
    });

    it('adds the creating user to the owners team', async () => {
      const dana = await api.userToken('dana');
      expect((await api.createOrg('dana-org', dana.token)).status).toBe(201);
      const members = await api.store.db
        .selectFrom('team_members')
        .innerJoin('teams', 'teams.id', 'team_members.team_id')
        .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
        .select(['teams.name', 'teams.is_owners', 'team_members.user_id'])
        .where('organizations.name', '=', 'dana-org')
        .execute();
      expect(members).toEqual([{ name: 'owners', is_owners: 1, user_id: dana.userId }]);
    });
  });

  describe('update, rename and delete', () => {
    beforeAll(async () => {
      expect((await api.createOrg('widgets')).status).toBe(201);
    });

    it('updates email and allow-force-delete-workspaces', async () => {
      const res = await api.patch(
        '/api/v2/organizations/widgets',
        orgBody({ email: 'ops@widgets.test', 'allow-force-delete-workspaces': true }),
      );
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toMatchObject({
        name: 'widgets',
        email: 'ops@widgets.test',
        'allow-force-delete-workspaces': true,
      });
      const read = await api.get('/api/v2/organizations/widgets');
      expect(read.body.data.attributes).toMatchObject({
        email: 'ops@widgets.test',
        'allow-force-delete-workspaces': true,
      });
    });

    it('renames through name: the new URL works, the old one is 404', async () => {
      const res = await api.patch('/api/v2/organizations/widgets', orgBody({ name: 'gadgets' }));
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe('gadgets');
      expect(res.body.data.attributes.email).toBe('ops@widgets.test');
      expect((await api.get('/api/v2/organizations/gadgets')).status).toBe(200);
      const old = await api.get('/api/v2/organizations/widgets');
      expect(old.status).toBe(404);
      expect(old.body.errors[0]).toMatchObject({ status: '404', title: 'not found' });
    });

    it('deletes with 204, then 404, and removes its projects and teams', async () => {
      const org = await api.store.db
        .selectFrom('organizations')
        .select('id')
        .where('name', '=', 'gadgets')
        .executeTakeFirstOrThrow();
      const rowsOf = async () => [
        ...(await api.store.db.selectFrom('projects').select('id').where('organization_id', '=', org.id).execute()),
        ...(await api.store.db.selectFrom('teams').select('id').where('organization_id', '=', org.id).execute()),
      ];
      expect(await rowsOf()).toHaveLength(2);

      const res = await api.delete('/api/v2/organizations/gadgets');
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api.get('/api/v2/organizations/gadgets')).status).toBe(404);
      expect(await rowsOf()).toEqual([]);
      expect((await api.get('/api/v2/organizations/acme')).status).toBe(200);
    });
  });

  describe('validation', () => {
    beforeAll(async () => {
      expect((await api.createOrg('taken')).status).toBe(201);
    });

    it('requires a name', () => expectRejected({ email: 'a@example.com' }, '/data/attributes/name'));
    it('rejects a bad name', () =>
      expectRejected({ name: 'bad name!', email: 'a@example.com' }, '/data/attributes/name'));
    it('requires an email', () => expectRejected({ name: 'no-email' }, '/data/attributes/email'));
    it('rejects a duplicate name', () =>
      expectRejected(
        { name: 'taken', email: 'a@example.com' },
        '/data/attributes/name',
        'Name has already been taken',
      ));
    it('rejects an unknown default-execution-mode', () =>
      expectRejected(
        { name: 'modes', email: 'a@example.com', 'default-execution-mode': 'bogus' },
        '/data/attributes/default-execution-mode',
      ));

    it('rejects a wrong data.type', async () => {
      const before = await orgCount();
      const res = await api.post(
        '/api/v2/organizations',
        orgBody({ name: 'typed', email: 'a@example.com' }, 'projects'),
      );
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ status: '422', source: { pointer: '/data/type' } });
      expect(await orgCount()).toBe(before);
    });

    it('rejects a body without data', async () => {
      const res = await api.post('/api/v2/organizations', { name: 'nodata', email: 'a@example.com' });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].status).toBe('422');
    });

    it('rejects malformed JSON with 400', async () => {
      const before = await orgCount();
      const res = await api.request('POST', '/api/v2/organizations', { raw: '{"data":' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ status: '400', title: 'bad request' });
      expect(await orgCount()).toBe(before);
    });

    it('rejects a body over 1 MiB with 413', async () => {
      const before = await orgCount();
      const padding = 'x'.repeat(1024 * 1024);
      const raw = JSON.stringify({
        data: { type: 'organizations', attributes: { name: 'huge', email: 'a@example.com', padding } },
      });
      const res = await api.request('POST', '/api/v2/organizations', { raw });
      expect(res.status).toBe(413);
      expect(res.headers.get('Content-Type')).toBe(JSONAPI);
      expect(res.body.errors[0].status).toBe('413');
      expect(await orgCount()).toBe(before);
    });

    it('rejects Content-Type text/plain with 415', async () => {
      const before = await orgCount();
      const raw = JSON.stringify(orgBody({ name: 'plain', email: 'a@example.com' }));
      const res = await api.request('POST', '/api/v2/organizations', {
        raw,
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(res.status).toBe(415);
      expect(res.body.errors[0].status).toBe('415');
      expect(await orgCount()).toBe(before);
    });

    it('accepts Content-Type application/json', async () => {
      const raw = JSON.stringify(orgBody({ name: 'json-org', email: 'a@example.com' }));
      const res = await api.request('POST', '/api/v2/organizations', {
        raw,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.id).toBe('json-org');
    });
  });

  it('treats percent-encoded brackets like plain ones', async () => {
    const encoded = await api.get('/api/v2/organizations?page%5Bsize%5D=1&page%5Bnumber%5D=2');
    const plain = await api.get('/api/v2/organizations?page[size]=1&page[number]=2');
    expect(encoded.status).toBe(200);
    expect(encoded.body.data).toHaveLength(1);
    expect(encoded.body.meta.pagination).toMatchObject({ 'current-page': 2, 'page-size': 1 });
    expect(encoded.body.data).toEqual(plain.body.data);
    expect(encoded.body.meta).toEqual(plain.body.meta);
  });

  it('sends application/vnd.api+json on every response with a body', () => {
    const withBody = seen.filter((s) => s.res.text.length > 0);
    expect(withBody.length).toBeGreaterThan(20);
    for (const { method, path, res } of withBody) {
      expect({ method, path, type: res.headers.get('Content-Type') }).toEqual({ method, path, type: JSONAPI });
    }
  });
});
