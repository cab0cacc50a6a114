import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoServers, type Answer, type TwoServers } from './two-servers.js';

/**
 * Moves, tag binding merges and remote state consumer changes racing on the same workspaces over
 * two serve processes: whatever the interleaving, the end state is one that some serial order of
 * the accepted requests gives, and every refusal is one that order explains.
 */
describe('concurrent writes on the same workspaces end in a serial-order state', () => {
  let s: TwoServers;
  let projects: string[];
  let target: string;
  let others: string[];

  // Approved consumers only (a self-hosted berth's default is global, as Terraform Enterprise's).
  const createWorkspace = async (name: string) => {
    const res = await s.call(0, 'POST', '/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name, 'global-remote-state': false } },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const ok = (answers: Answer[], statuses: number[]) => {
    for (const r of answers) expect(statuses, r.text).toContain(r.status);
  };
  const consumers = async () => {
    const res = await s.call(1, 'GET', `/workspaces/${target}/relationships/remote-state-consumers?page[size]=100`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.pagination['total-count']).toBe(res.body.data.length);
    return (res.body.data.map((w: any) => w.id) as string[]).sort();
  };
  const ids = (...list: string[]) => ({ data: list.map((id) => ({ type: 'workspaces', id })) });

  beforeAll(async () => {
    s = await twoServers();
    projects = [];
    for (const name of ['Proj-1', 'Proj-2', 'Proj-3', 'Proj-4']) {
      const res = await s.call(0, 'POST', '/organizations/acme/projects', {
        data: { type: 'projects', attributes: { name } },
      });
      expect(res.status, res.text).toBe(201);
      projects.push(res.body.data.id);
    }
    target = await createWorkspace('target');
    others = [];
    for (let i = 0; i < 8; i++) others.push(await createWorkspace(`other-${i}`));
  });
  afterAll(() => s?.stop());

  it('60 concurrent moves (workspace PATCH and project move endpoint): the workspace is in exactly one project, one that was asked for; counts agree', async () => {
    const asked = new Set<string>();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const project = projects[i % projects.length];
        const ws = i % 3 === 0 ? others[i % others.length] : target;
        if (ws === target) asked.add(project);
        return i % 2 === 0
          ? s.call(i, 'PATCH', `/workspaces/${ws}`, {
              data: {
                type: 'workspaces',
                attributes: {},
                relationships: { project: { data: { type: 'projects', id: project } } },
              },
            })
          : s.call(i, 'POST', `/projects/${project}/relationships/workspaces`, ids(ws));
      }),
    );
    ok(answers, [200, 204]);
    const ws = await s.call(0, 'GET', `/workspaces/${target}`);
    const home = ws.body.data.relationships.project.data.id;
    expect(asked).toContain(home);
    // Listed in exactly that project, and the project counts add up to every workspace.
    let total = 0;
    for (const p of projects) {
      const list = await s.call(1, 'GET', `/organizations/acme/workspaces?filter[project][id]=${p}&page[size]=100`);
      const listed = list.body.data.map((w: any) => w.id);
      expect(listed.includes(target)).toBe(p === home);
      const project = await s.call(0, 'GET', `/projects/${p}`);
      expect(project.body.data.attributes['workspace-count']).toBe(listed.length);
      expect(list.body.meta.pagination['total-count']).toBe(listed.length);
      total += listed.length;
    }
    const everything = await s.call(0, 'GET', '/organizations/acme/workspaces?page[size]=100');
    const inDefault = everything.body.data.filter(
      (w: any) => !projects.includes(w.relationships.project.data.id),
    ).length;
    expect(total + inDefault).toBe(everything.body.meta.pagination['total-count']);
  });

  it('40 concurrent tag binding merges: at most 10 bindings, no duplicate key, exactly the union of accepted merges; each refusal would exceed 10', async () => {
    const keys = Array.from({ length: 16 }, (_, i) => `k${i}`);
    const requests = Array.from({ length: 40 }, (_, i) => {
      const pairs = [keys[i % 16], keys[(i * 7 + 3) % 16]].map((key) => ({ key, value: `v${i}` }));
      const body = { data: pairs.map((attributes) => ({ type: 'tag-bindings', attributes })) };
      return {
        pairs,
        body,
        path: i % 2 === 0 ? `/workspaces/${target}/tag-bindings` : `/workspaces/${target}/relationships/tag-bindings`,
        method: i % 2 === 0 ? 'PATCH' : 'POST',
      };
    });
    const answers = await Promise.all(requests.map((r, i) => s.call(i, r.method, r.path, r.body)));
    ok(answers, [200, 204, 422]);
    const stored = (await s.call(0, 'GET', `/workspaces/${target}/tag-bindings`)).body.data.map(
      (t: any) => t.attributes,
    );
    const storedKeys = stored.map((t: any) => t.key);
    expect(storedKeys.length).toBeLessThanOrEqual(10);
    expect(new Set(storedKeys).size).toBe(storedKeys.length);
    const accepted = requests.filter((_, i) => answers[i].status !== 422);
    expect(new Set(storedKeys)).toEqual(new Set(accepted.flatMap((r) => r.pairs.map((p) => p.key))));
    // Every stored value is one that an accepted merge sent for that key.
    for (const t of stored)
      expect(accepted.some((r) => r.pairs.some((p) => p.key === t.key && p.value === t.value))).toBe(true);
    requests.forEach((r, i) => {
      if (answers[i].status !== 422) return;
      expect(answers[i].body.errors[0].detail).toMatch(/cannot exceed 10/);
      expect(new Set([...storedKeys, ...r.pairs.map((p) => p.key)]).size).toBeGreaterThan(10);
    });
  });

  it('concurrent adds and removes of remote state consumers: the list is exactly the expected set', async () => {
    const [c0, c1, c2, c3, c4, c5, c6, c7] = others as [string, string, string, string, string, string, string, string];
    expect(
      (await s.call(0, 'PATCH', `/workspaces/${target}/relationships/remote-state-consumers`, ids(c0, c1, c2, c3)))
        .status,
    ).toBe(204);
    // Adds of c4..c7 (each several times) and removes of c0, c1 (each several times) commute.
    const answers = await Promise.all(
      Array.from({ length: 48 }, (_, i) => {
        const add = [c4, c5, c6, c7][i % 4];
        const remove = [c0, c1][i % 2];
        return i % 3 === 0
          ? s.call(i, 'DELETE', `/workspaces/${target}/relationships/remote-state-consumers`, ids(remove))
          : s.call(i, 'POST', `/workspaces/${target}/relationships/remote-state-consumers`, ids(add));
      }),
    );
    ok(answers, [204]);
    expect(await consumers()).toEqual([c2, c3, c4, c5, c6, c7].sort());
  });

  it('concurrent replaces and adds: the list is what some serial order gives', async () => {
    const [c0, c1, c2, c3, c4, c5] = others as [string, string, string, string, string, string];
    const sets = [[c0], [c1, c2], [c3, c4, c5], [c0, c5]];
    const answers = await Promise.all([
      ...sets.map((set, i) =>
        s.call(i, 'PATCH', `/workspaces/${target}/relationships/remote-state-consumers`, ids(...set)),
      ),
      s.call(1, 'POST', `/workspaces/${target}/relationships/remote-state-consumers`, ids(c2)),
    ]);
    ok(answers, [204]);
    const final = await consumers();
    // The last replace wins, with or without the add of c2 after it.
    const possible = sets.flatMap((set) => [set, [...new Set([...set, c2])]]).map((set) => [...set].sort());
    expect(possible).toContainEqual(final);
    expect(s.stderr()).not.toMatch(/database is locked|unexpected error/i);
  });
});
