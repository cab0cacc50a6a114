import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { bindings, createWorkspace } from '../../helpers/workspaces.js';
import { goTfeDeleteOlder, goTfeTagsByName } from '../../fixtures/go-tfe.js';

/*
 * The workspace document is read by several paths (by id, by name, a list page, with includes),
 * each loading its parts in bulk or alone: the retention policy comes with the row, the run
 * metrics are only asked for workspaces that ever had a run. Every path must give the same
 * document, member for member, on workspaces that differ in every part.
 */
describe('workspace documents: the same on every read path (self-hosted edition)', () => {
  let api: TestApi;
  const ids: Record<string, string> = {};
  let policyId: string;

  const run = async (ws: string) => {
    const res = await api.post('/api/v2/runs', {
      data: { type: 'runs', relationships: { workspace: { data: { type: 'workspaces', id: ws } } } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const report = async (id: string, status: string, at: number) => {
    const res = await api.post(`/api/v2/runs/${id}/actions/report`, {
      data: { type: 'run-reports', attributes: { status, at: new Date(Date.UTC(2026, 0, 1) + at).toISOString() } },
    });
    expect(res.status, res.text).toBeLessThan(300);
  };

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    ids.plain = (await createWorkspace(api, 'acme', { name: 'plain' })).body.data.id;
    ids.escapes = (
      await createWorkspace(api, 'acme', {
        name: 'escapes',
        description: 'quote " backslash \\ newline \n tab \t <b>&amp;</b> ünïcødé 雪 😀 \u2028',
        'working-directory': 'infra/"odd" dir',
        'trigger-prefixes': ['modules/', 'ü/'],
      })
    ).body.data.id;
    ids.tagged = (await createWorkspace(api, 'acme', { name: 'tagged' })).body.data.id;
    expect(
      (await api.post(`/api/v2/workspaces/${ids.tagged}/relationships/tags`, goTfeTagsByName('b', 'a'))).status,
    ).toBe(204);
    expect(
      (
        await api.patch(`/api/v2/workspaces/${ids.tagged}`, {
          data: {
            type: 'workspaces',
            attributes: {},
            relationships: { 'tag-bindings': bindings({ env: 'prod', team: 'ops' }) },
          },
        })
      ).status,
    ).toBe(200);
    ids.runs = (await createWorkspace(api, 'acme', { name: 'with-runs' })).body.data.id;
    const applied = await run(ids.runs);
    await report(applied, 'planning', 0);
    await report(applied, 'planned', 1500);
    expect((await api.post(`/api/v2/runs/${applied}/actions/apply`)).status).toBe(202);
    await report(applied, 'applying', 2000);
    await report(applied, 'applied', 5000);
    const errored = await run(ids.runs);
    await report(errored, 'planning', 0);
    await report(errored, 'errored', 700);
    ids.pending = (await createWorkspace(api, 'acme', { name: 'pending-run' })).body.data.id;
    await run(ids.pending);
    ids.policy = (await createWorkspace(api, 'acme', { name: 'with-policy' })).body.data.id;
    const policy = await api.post(
      `/api/v2/workspaces/${ids.policy}/relationships/data-retention-policy`,
      goTfeDeleteOlder(30),
    );
    expect(policy.status, policy.text).toBe(200);
    policyId = policy.body.data.id;
    ids.locked = (await createWorkspace(api, 'acme', { name: 'locked' })).body.data.id;
    expect((await api.post(`/api/v2/workspaces/${ids.locked}/actions/lock`, { reason: 'fix "it"' })).status).toBe(200);
  });
  afterAll(() => api.close());

  const INCLUDES = ['', 'include=effective_tag_bindings,outputs,organization,project,locked_by,current_run'];

  it('GET by id, GET by name and the list page give each workspace the same document', async () => {
    for (const include of INCLUDES) {
      const page = await api.get(`/api/v2/organizations/acme/workspaces?page[size]=100&${include}`);
      expect(page.status).toBe(200);
      expect(page.body.data).toHaveLength(Object.keys(ids).length);
      for (const [name, id] of Object.entries(ids)) {
        const byId = await api.get(`/api/v2/workspaces/${id}?${include}`);
        const byName = await api.get(
          `/api/v2/organizations/acme/workspaces/${byId.body.data.attributes.name}?${include}`,
        );
        expect(byId.status, name).toBe(200);
        expect(byName.text, name).toBe(byId.text);
        const listed = page.body.data.find((w: { id: string }) => w.id === id);
        expect(JSON.stringify(listed), name).toBe(JSON.stringify(byId.body.data));
      }
    }
  });

  it('the run metrics: null without runs or with no finished one, figures with them, on every path', async () => {
    const page = (await api.get('/api/v2/organizations/acme/workspaces?page[size]=100')).body.data;
    const attrs = (id: string) => page.find((w: { id: string }) => w.id === id).attributes;
    const NONE = {
      'apply-duration-average': null,
      'plan-duration-average': null,
      'policy-check-failures': null,
      'run-failures': null,
      'workspace-kpis-runs-count': null,
    };
    expect(attrs(ids.plain)).toMatchObject(NONE);
    expect(attrs(ids.pending)).toMatchObject(NONE);
    const counted = {
      'apply-duration-average': 3000,
      'plan-duration-average': 1100,
      'policy-check-failures': 0,
      'run-failures': 1,
      'workspace-kpis-runs-count': 2,
      'workspace-kpis-run-count': 2,
    };
    expect(attrs(ids.runs)).toMatchObject(counted);
    expect((await api.get(`/api/v2/workspaces/${ids.runs}`)).body.data.attributes).toMatchObject(counted);
  });

  it('the own retention policy: linked where set, null elsewhere, on every path', async () => {
    const page = (await api.get('/api/v2/organizations/acme/workspaces?page[size]=100')).body.data;
    for (const [name, id] of Object.entries(ids)) {
      const expected =
        name === 'policy'
          ? {
              data: { type: 'data-retention-policy-delete-olders', id: policyId },
              links: { related: `/api/v2/workspaces/${id}/relationships/data-retention-policy` },
            }
          : { data: null };
      const listed = page.find((w: { id: string }) => w.id === id);
      expect(listed.relationships['data-retention-policy'], name).toEqual(expected);
      const got = await api.get(`/api/v2/workspaces/${id}`);
      expect(got.body.data.relationships['data-retention-policy'], name).toEqual(expected);
    }
  });

  it('the tags and the escaped strings come through unchanged', async () => {
    const tagged = (await api.get(`/api/v2/workspaces/${ids.tagged}`)).body.data.attributes;
    expect(tagged['tag-names']).toEqual(['b', 'a']);
    const escapes = (await api.get(`/api/v2/workspaces/${ids.escapes}`)).body.data.attributes;
    expect(escapes.description).toBe('quote " backslash \\ newline \n tab \t <b>&amp;</b> ünïcødé 雪 😀 \u2028');
    expect(escapes['working-directory']).toBe('infra/"odd" dir');
  });
});
