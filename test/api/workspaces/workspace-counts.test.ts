import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

/**
 * Workspace list totals and projects' `workspace-count` come from counts kept by triggers
 * (migration 023). After every kind of change of the workspaces (create, safe and force delete,
 * a move by PATCH and by the project's relationship, a project and an organization deleted), the
 * answers and the kept counts agree with counting the workspaces themselves.
 */
describe('workspace counts kept by triggers', () => {
  let api: TestApi;
  const P = '/api/v2';
  let alpha: string;
  let beta: string;
  let defaultProject: string;
  const ids = new Map<string, string>();

  /** Every project's kept count equals the number of its workspaces (no row counts as 0). */
  const expectCountsTrue = async () => {
    const { rows: kept } = await sql<{ project_id: string; n: number | string }>`
      select project_id, n from workspace_counts`.execute(api.store.db);
    const { rows: actual } = await sql<{ project_id: string; n: number | string }>`
      select project_id, count(*) as n from workspaces group by project_id`.execute(api.store.db);
    const keptBy = new Map(kept.map((r) => [r.project_id, Number(r.n)]));
    for (const r of actual) expect(keptBy.get(r.project_id), r.project_id).toBe(Number(r.n));
    for (const [project, n] of keptBy) if (!actual.some((r) => r.project_id === project)) expect(n, project).toBe(0);
  };

  /** The list's total (a page of 1, so that the count is asked for) and the project's workspace-count. */
  const totals = async (org: string, project?: string) => {
    const filter = project ? `&filter%5Bproject%5D%5Bid%5D=${project}` : '';
    const list = await api.get(`${P}/organizations/${org}/workspaces?page%5Bsize%5D=1${filter}`);
    expect(list.status, list.text).toBe(200);
    return list.body.meta.pagination['total-count'] as number;
  };
  const projectCount = async (project: string) => {
    const res = await api.get(`${P}/projects/${project}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data.attributes['workspace-count'] as number;
  };

  /** The organization's list total; each project's list total and workspace-count; the kept counts. */
  const expectTotals = async (org: number, perProject: Record<string, number>) => {
    expect(await totals('count-org')).toBe(org);
    for (const [project, n] of Object.entries(perProject)) {
      expect(await totals('count-org', project), project).toBe(n);
      expect(await projectCount(project), project).toBe(n);
    }
    await expectCountsTrue();
  };

  const create = async (org: string, name: string, project?: string) => {
    const relationships = project ? { project: { data: { type: 'projects', id: project } } } : undefined;
    const res = await api.post(`${P}/organizations/${org}/workspaces`, {
      data: { type: 'workspaces', attributes: { name }, relationships },
    });
    expect(res.status, res.text).toBe(201);
    ids.set(name, res.body.data.id);
  };

  beforeAll(async () => {
    api = await TestApi.create();
    for (const org of ['count-org', 'other-org']) expect((await api.createOrg(org)).status).toBe(201);
    const made = async (name: string) => {
      const res = await api.post(`${P}/organizations/count-org/projects`, {
        data: { type: 'projects', attributes: { name } },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as string;
    };
    alpha = await made('alpha');
    beta = await made('beta');
    const org = await api.get(`${P}/organizations/count-org`);
    defaultProject = org.body.data.relationships['default-project'].data.id;
  });
  afterAll(() => api.close());

  it('counts creates per project and per organization', async () => {
    for (const name of ['a1', 'a2', 'a3']) await create('count-org', name, alpha);
    await create('count-org', 'b1', beta);
    await create('count-org', 'd1');
    await create('other-org', 'elsewhere');
    await expectTotals(5, { [alpha]: 3, [beta]: 1, [defaultProject]: 1 });
    expect(await totals('other-org')).toBe(1);
  });

  it('a project of another organization counts none in this one', async () => {
    const other = await api.get(`${P}/organizations/other-org`);
    const otherDefault = other.body.data.relationships['default-project'].data.id;
    const list = await api.get(
      `${P}/organizations/count-org/workspaces?page%5Bsize%5D=1&filter%5Bproject%5D%5Bid%5D=${otherDefault}`,
    );
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toEqual([]);
    expect(list.body.meta.pagination['total-count']).toBe(0);
  });

  it('follows moves: by PATCH and by the project relationship', async () => {
    const patched = await api.patch(`${P}/workspaces/${ids.get('a1')}`, {
      data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: beta } } } },
    });
    expect(patched.status, patched.text).toBe(200);
    const moved = await api.post(`${P}/projects/${beta}/relationships/workspaces`, {
      data: [{ type: 'workspaces', id: ids.get('a2') }],
    });
    expect(moved.status, moved.text).toBe(204);
    await expectTotals(5, { [alpha]: 1, [beta]: 3, [defaultProject]: 1 });
  });

  it('follows safe and force deletes', async () => {
    expect((await api.post(`${P}/workspaces/${ids.get('a3')}/actions/safe-delete`)).status).toBe(204);
    expect((await api.delete(`${P}/workspaces/${ids.get('d1')}`)).status).toBe(204);
    await expectTotals(3, { [alpha]: 0, [beta]: 3, [defaultProject]: 0 });
  });

  it('an empty project deleted takes its count along; a project with workspaces is still refused', async () => {
    expect((await api.delete(`${P}/projects/${beta}`)).status).toBe(409);
    expect((await api.delete(`${P}/projects/${alpha}`)).status).toBe(204);
    await expectCountsTrue();
    expect(await totals('count-org')).toBe(3);
  });

  it('an organization deleted takes its counts along, and leaves the others', async () => {
    expect((await api.delete(`${P}/organizations/count-org`)).status).toBe(204);
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from workspace_counts where organization_id not in (select id from organizations)`.execute(
      api.store.db,
    );
    expect(Number(rows[0].n)).toBe(0);
    expect(await totals('other-org')).toBe(1);
    await expectCountsTrue();
  });
});
