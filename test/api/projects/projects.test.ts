import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DURATION_FORMAT_DETAIL } from '../../../src/domain/common/duration.js';
import { TOO_MANY_BINDINGS_DETAIL } from '../../../src/domain/workspaces/tags.js';
import { TestApi } from '../../helpers/api.js';
import { ISO_MS, PRJ_ID, createProject, expectRejected, projectBody, projectState } from '../../helpers/projects.js';

const NAME_PTR = '/data/attributes/name';
const invalidAttr = (pointer: string, detail: string) => ({ status: 422, title: 'invalid attribute', detail, pointer });
const tags = (n: number, prefix = 'k') =>
  Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, value: `v${i}` }));

describe('projects: create, read, update, delete', () => {
  let api: TestApi;
  const post = (body: unknown) => api.post('/api/v2/organizations/acme/projects', body);
  const patch = (id: string, body: unknown) => api.patch(`/api/v2/projects/${id}`, body);

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  describe('create', () => {
    let created: any;
    beforeAll(async () => {
      const res = await post(projectBody({ name: 'Web Platform' }));
      expect(res.status).toBe(201);
      expect(res.headers.get('Content-Type')).toBe('application/vnd.api+json');
      created = res.body.data;
    });

    it('answers 201 with the project document of reference section 11', () => {
      expect(created.id).toMatch(PRJ_ID);
      expect(created.type).toBe('projects');
      expect(created.attributes).toEqual({
        name: 'Web Platform',
        description: null,
        'created-at': expect.stringMatching(ISO_MS),
        'auto-destroy-activity-duration': null,
        'default-execution-mode': 'remote',
        'setting-overwrites': { 'default-execution-mode': false, 'default-agent-pool': false },
        'workspace-count': 0,
        'team-count': 0,
        'is-default': false,
        permissions: {
          'can-read': true,
          'can-update': true,
          'can-destroy': true,
          'can-create-workspace': true,
          'can-move-workspace': true,
          'can-manage-tags': true,
          'can-manage-teams': true,
        },
      });
      expect(created.relationships).toEqual({
        organization: { data: { id: 'acme', type: 'organizations' }, links: { related: '/api/v2/organizations/acme' } },
        'default-agent-pool': { data: null },
        'tag-bindings': { links: { related: `/api/v2/projects/${created.id}/tag-bindings` } },
        'effective-tag-bindings': { links: { related: `/api/v2/projects/${created.id}/effective-tag-bindings` } },
      });
      expect(created.links).toEqual({ self: `/api/v2/projects/${created.id}` });
    });

    it('serialises the project identically from create, read and list', async () => {
      const read = await api.get(`/api/v2/projects/${created.id}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(created);
      const list = await api.get('/api/v2/organizations/acme/projects?page[size]=100');
      expect(list.body.data.find((p: any) => p.id === created.id)).toEqual(created);
    });

    it('stores description, auto-destroy duration and inline tag bindings', async () => {
      const res = await post(
        projectBody({ name: 'Data_Lake-2', description: 'lake', 'auto-destroy-activity-duration': '14d' }, [
          { key: 'env', value: 'prod' },
          { key: 'solo' },
        ]),
      );
      expect(res.status).toBe(201);
      expect(res.body.data.attributes).toMatchObject({
        name: 'Data_Lake-2',
        description: 'lake',
        'auto-destroy-activity-duration': '14d',
      });
      const bindings = await api.get(`/api/v2/projects/${res.body.data.id}/tag-bindings`);
      expect(bindings.body.data.map((b: any) => b.attributes)).toEqual([
        { key: 'env', value: 'prod', 'created-at': expect.stringMatching(ISO_MS) },
        { key: 'solo', value: '', 'created-at': expect.stringMatching(ISO_MS) },
      ]);
    });

    it.each([
      ['three characters', 'abc'],
      ['forty characters', 'x'.repeat(40)],
      ['inner spaces, digits, - and _', 'a b-c_d 9'],
    ])('accepts a name of %s', async (_label, name) => {
      const res = await post(projectBody({ name }));
      expect(res.status).toBe(201);
      expect(res.body.data.attributes.name).toBe(name);
    });

    it.each(['1h', '9999h', '1d', '9999d'])('accepts the auto-destroy duration %s', async (duration) => {
      const res = await post(projectBody({ name: `dur ${duration}`, 'auto-destroy-activity-duration': duration }));
      expect(res.status).toBe(201);
      expect(res.body.data.attributes['auto-destroy-activity-duration']).toBe(duration);
    });

    it('accepts a description of 256 characters and exactly 10 tag bindings', async () => {
      const res = await post(projectBody({ name: 'limits ok', description: 'd'.repeat(256) }, tags(10)));
      expect(res.status).toBe(201);
      expect((await api.get(`/api/v2/projects/${res.body.data.id}/tag-bindings`)).body.data).toHaveLength(10);
    });

    it.each([
      ['a missing name', {}, "Name can't be blank"],
      ['an empty name', { name: '' }, "Name can't be blank"],
      ['a name of 2 characters', { name: 'ab' }, 'Name is too short (minimum is 3 characters)'],
      ['a name of 41 characters', { name: 'x'.repeat(41) }, 'Name is too long (maximum is 40 characters)'],
      ['a name with a slash', { name: 'web/api' }, 'Name may only contain letters, numbers, spaces, "-" and "_"'],
      ['a name with a dot', { name: 'web.api' }, 'Name may only contain letters, numbers, spaces, "-" and "_"'],
      ['a name starting with a space', { name: ' web' }, 'Name must not start or end with a space'],
      ['a name ending with a space', { name: 'web ' }, 'Name must not start or end with a space'],
      ['a name that is not a string', { name: 42 }, 'Name must be a string'],
    ])('rejects %s with 422 at the name', async (_label, attributes, detail) => {
      await expectRejected(api, () => post(projectBody(attributes)), invalidAttr(NAME_PTR, detail));
    });

    it('rejects a name taken by another project, compared case-insensitively', async () => {
      await expectRejected(
        api,
        () => post(projectBody({ name: 'WEB platform' })),
        invalidAttr(NAME_PTR, 'Name has already been taken'),
      );
      await expectRejected(
        api,
        () => post(projectBody({ name: 'default project' })),
        invalidAttr(NAME_PTR, 'Name has already been taken'),
      );
    });

    it('allows the same name in another organization', async () => {
      expect((await api.createOrg('other')).status).toBe(201);
      expect(
        (await api.post('/api/v2/organizations/other/projects', projectBody({ name: 'Web Platform' }))).status,
      ).toBe(201);
    });

    it('rejects a description over 256 characters', async () => {
      await expectRejected(
        api,
        () => post(projectBody({ name: 'long desc', description: 'd'.repeat(257) })),
        invalidAttr('/data/attributes/description', 'Description is too long (maximum is 256 characters)'),
      );
    });

    it('counts characters, not UTF-16 units: 256 emoji fit, 257 do not', async () => {
      const fits = await post(projectBody({ name: 'emoji ok', description: '\u{1F680}'.repeat(256) }));
      expect(fits.status, fits.text).toBe(201);
      expect(fits.body.data.attributes.description).toBe('\u{1F680}'.repeat(256));
      await expectRejected(
        api,
        () => post(projectBody({ name: 'emoji long', description: '\u{1F680}'.repeat(257) })),
        invalidAttr('/data/attributes/description', 'Description is too long (maximum is 256 characters)'),
      );
    });

    it.each(['20m', '0d', '00h', '10000d', '14', 'd', '1.5d', ' 14d', '14D'])(
      'rejects the auto-destroy duration %j',
      async (duration) => {
        await expectRejected(
          api,
          () => post(projectBody({ name: 'bad duration', 'auto-destroy-activity-duration': duration })),
          invalidAttr('/data/attributes/auto-destroy-activity-duration', DURATION_FORMAT_DETAIL),
        );
      },
    );

    it('rejects 11 inline tag bindings', async () => {
      await expectRejected(
        api,
        () => post(projectBody({ name: 'too many tags' }, tags(11))),
        invalidAttr('/data/relationships/tag-bindings/data', TOO_MANY_BINDINGS_DETAIL),
      );
    });

    it.each(['hc:owner', 'hcp:owner', 'HCP:owner'])('rejects the reserved inline tag key %s', async (key) => {
      await expectRejected(
        api,
        () => post(projectBody({ name: 'reserved' }, [{ key, value: 'x' }])),
        invalidAttr(
          '/data/relationships/tag-bindings/data/0/attributes/key',
          'Key is invalid: the prefixes hc: and hcp: are reserved',
        ),
      );
    });

    it('rejects a wrong data.type', async () => {
      await expectRejected(
        api,
        () => post(projectBody({ name: 'typed' }, undefined, 'workspaces')),
        invalidAttr('/data/type', 'type must be "projects"'),
      );
    });

    it('rejects a body without data with 422', async () => {
      await expectRejected(
        api,
        () => post({ type: 'projects' }),
        invalidAttr('/data', 'request body must contain a data member'),
      );
    });

    it('rejects malformed JSON with 400', async () => {
      const before = await projectState(api);
      const res = await api.request('POST', '/api/v2/organizations/acme/projects', { raw: '{"data": {' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        status: '400',
        title: 'bad request',
        detail: expect.stringMatching(/^malformed JSON/),
      });
      expect(await projectState(api)).toEqual(before);
    });

    it('reports several broken rules in one response', async () => {
      const before = await projectState(api);
      const res = await post(
        projectBody({ name: 'x', description: 'd'.repeat(300), 'auto-destroy-activity-duration': '1w' }),
      );
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: any) => e.source.pointer)).toEqual([
        NAME_PTR,
        '/data/attributes/description',
        '/data/attributes/auto-destroy-activity-duration',
      ]);
      expect(await projectState(api)).toEqual(before);
    });

    it('answers 404 for an unknown organization', async () => {
      await expectRejected(api, () => api.post('/api/v2/organizations/nope/projects', projectBody({ name: 'lost' })), {
        status: 404,
        title: 'not found',
        detail: 'organization nope not found',
      });
    });
  });

  describe('read', () => {
    it('answers 404 for an unknown project', async () => {
      const res = await api.get('/api/v2/projects/prj-0000000000000000');
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([
        { status: '404', title: 'not found', detail: 'project prj-0000000000000000 not found' },
      ]);
    });

    it('rejects an unknown include with 400', async () => {
      const p = await createProject(api, 'acme', { name: 'include me' });
      const res = await api.get(`/api/v2/projects/${p.id}?include=organization`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        status: '400',
        title: 'bad request',
        detail: 'Invalid include parameter',
      });
    });

    it.each(['effective_tag_bindings', 'effective-tag-bindings'])(
      'sideloads effective tag bindings with include=%s',
      async (include) => {
        const p = await createProject(api, 'acme', { name: `inc ${include.includes('_') ? 'underscore' : 'dash'}` }, [
          { key: 'env', value: 'prod' },
        ]);
        const res = await api.get(`/api/v2/projects/${p.id}?include=${include}`);
        expect(res.status).toBe(200);
        const ids = res.body.data.relationships['effective-tag-bindings'].data;
        expect(ids).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{16}$/), type: 'effective-tag-bindings' }]);
        expect(res.body.included).toEqual([
          { id: ids[0].id, type: 'effective-tag-bindings', attributes: { key: 'env', value: 'prod' } },
        ]);
        // Apart from the linkage, the document is the plain one.
        const plain = (await api.get(`/api/v2/projects/${p.id}`)).body.data;
        expect({
          ...res.body.data,
          relationships: {
            ...res.body.data.relationships,
            'effective-tag-bindings': plain.relationships['effective-tag-bindings'],
          },
        }).toEqual(plain);
      },
    );
  });

  describe('update', () => {
    let project: any;
    beforeAll(async () => {
      project = await createProject(
        api,
        'acme',
        { name: 'Billing', description: 'money', 'auto-destroy-activity-duration': '3d' },
        [
          { key: 'env', value: 'prod' },
          { key: 'team', value: 'pay' },
        ],
      );
    });
    const bindingsOf = async (id: string) =>
      (await api.get(`/api/v2/projects/${id}/tag-bindings`)).body.data.map((b: any) => [
        b.attributes.key,
        b.attributes.value,
      ]);

    it('changes only the given attributes and answers the document a read gives', async () => {
      const res = await patch(project.id, projectBody({ description: 'payments' }));
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toMatchObject({
        name: 'Billing',
        description: 'payments',
        'auto-destroy-activity-duration': '3d',
      });
      expect((await api.get(`/api/v2/projects/${project.id}`)).body.data).toEqual(res.body.data);
      expect(res.body.data.attributes['created-at']).toBe(project.attributes['created-at']);
    });

    it('leaves the tag bindings alone when the relationship is absent', async () => {
      await patch(project.id, projectBody({ name: 'Billing' }));
      expect(await bindingsOf(project.id)).toEqual([
        ['env', 'prod'],
        ['team', 'pay'],
      ]);
    });

    it('replaces the tag bindings when the relationship is present', async () => {
      const res = await patch(
        project.id,
        projectBody({}, [
          { key: 'team', value: 'billing' },
          { key: 'tier', value: '1' },
        ]),
      );
      expect(res.status).toBe(200);
      expect(await bindingsOf(project.id)).toEqual([
        ['team', 'billing'],
        ['tier', '1'],
      ]);
    });

    it('removes every tag binding with data: []', async () => {
      const res = await patch(project.id, projectBody({}, []));
      expect(res.status).toBe(200);
      expect(await bindingsOf(project.id)).toEqual([]);
    });

    it('clears the auto-destroy duration and the description with null', async () => {
      const res = await patch(project.id, projectBody({ 'auto-destroy-activity-duration': null, description: null }));
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toMatchObject({ 'auto-destroy-activity-duration': null, description: null });
      const set = await patch(project.id, projectBody({ 'auto-destroy-activity-duration': '12h' }));
      expect(set.body.data.attributes['auto-destroy-activity-duration']).toBe('12h');
    });

    it('renames, also to a different case of its own name', async () => {
      expect((await patch(project.id, projectBody({ name: 'BILLING' }))).body.data.attributes.name).toBe('BILLING');
      expect((await patch(project.id, projectBody({ name: 'Billing Team' }))).body.data.attributes.name).toBe(
        'Billing Team',
      );
    });

    it('rejects the name of another project (case-insensitive) and changes nothing', async () => {
      await expectRejected(
        api,
        () => patch(project.id, projectBody({ name: 'web platform', description: 'x' })),
        invalidAttr(NAME_PTR, 'Name has already been taken'),
      );
    });

    it.each([
      ['a too long name', { name: 'y'.repeat(41) }, NAME_PTR, 'Name is too long (maximum is 40 characters)'],
      ['a bad name', { name: 'a!b' }, NAME_PTR, 'Name may only contain letters, numbers, spaces, "-" and "_"'],
      ['a null name', { name: null }, NAME_PTR, 'Name must be a string'],
      [
        'a bad duration',
        { 'auto-destroy-activity-duration': '20m' },
        '/data/attributes/auto-destroy-activity-duration',
        DURATION_FORMAT_DETAIL,
      ],
      [
        'a long description',
        { description: 'd'.repeat(257) },
        '/data/attributes/description',
        'Description is too long (maximum is 256 characters)',
      ],
    ])('rejects %s and changes nothing', async (_label, attributes, pointer, detail) => {
      await expectRejected(api, () => patch(project.id, projectBody(attributes)), invalidAttr(pointer, detail));
    });

    it('rejects 11 inline tag bindings on update and keeps the old ones', async () => {
      await patch(project.id, projectBody({}, [{ key: 'keep', value: 'me' }]));
      await expectRejected(
        api,
        () => patch(project.id, projectBody({ name: 'Renamed' }, tags(11))),
        invalidAttr('/data/relationships/tag-bindings/data', TOO_MANY_BINDINGS_DETAIL),
      );
      expect(await bindingsOf(project.id)).toEqual([['keep', 'me']]);
    });

    it('rejects a wrong data.type on update', async () => {
      await expectRejected(
        api,
        () => patch(project.id, projectBody({ name: 'x y z' }, undefined, 'organizations')),
        invalidAttr('/data/type', 'type must be "projects"'),
      );
    });

    it('answers 404 for an unknown project', async () => {
      await expectRejected(api, () => patch('prj-0000000000000000', projectBody({ name: 'ghost' })), {
        status: 404,
        title: 'not found',
        detail: 'project prj-0000000000000000 not found',
      });
    });

    it('lets the default project be renamed', async () => {
      const list = await api.get('/api/v2/organizations/acme/projects?filter[names]=Default Project');
      const id = list.body.data[0].id;
      const res = await patch(id, projectBody({ name: 'Main' }));
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toMatchObject({ name: 'Main', 'is-default': true });
      expect((await patch(id, projectBody({ name: 'Default Project' }))).status).toBe(200);
    });
  });

  describe('delete', () => {
    it('deletes a project and its tag bindings: 204 without a body', async () => {
      const p = await createProject(api, 'acme', { name: 'Doomed' }, [{ key: 'a', value: 'b' }]);
      const res = await api.delete(`/api/v2/projects/${p.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api.get(`/api/v2/projects/${p.id}`)).status).toBe(404);
      const left = await api.store.db
        .selectFrom('project_tag_bindings')
        .selectAll()
        .where('project_id', '=', p.id)
        .execute();
      expect(left).toEqual([]);
      // The name is free again.
      expect((await api.post('/api/v2/organizations/acme/projects', projectBody({ name: 'doomed' }))).status).toBe(201);
    });

    it("refuses to delete the organization's default project with 409", async () => {
      const org = await api.get('/api/v2/organizations/acme');
      const id = org.body.data.relationships['default-project'].data.id;
      await expectRejected(api, () => api.delete(`/api/v2/projects/${id}`), {
        status: 409,
        title: 'conflict',
        detail: 'The default project of an organization cannot be deleted',
      });
    });

    it('answers 404 for an unknown project', async () => {
      await expectRejected(api, () => api.delete('/api/v2/projects/prj-0000000000000000'), {
        status: 404,
        title: 'not found',
        detail: 'project prj-0000000000000000 not found',
      });
    });
  });
});
