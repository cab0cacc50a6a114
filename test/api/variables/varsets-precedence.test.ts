import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { effectiveVariables } from '../../../src/services/variables/effective.js';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';

/**
 * What a run of workspace `web` (project Alpha) is given when its own variables, variable sets of
 * every scope and the run's variables set the same keys (domain/variables/variable-precedence.ts has the
 * exhaustive cases; this reads them from the store, as the executor does).
 */
describe('variable set precedence, from the store', () => {
  let api: TestApi;
  let f: AccessFixture;
  beforeEach(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
  });
  afterEach(() => api.close());

  const set = async (
    name: string,
    scope: 'global' | 'project' | 'workspace' | 'none',
    priority: boolean,
    vars: Record<string, string>,
    category: 'terraform' | 'env' = 'terraform',
  ) => {
    const relationships: Record<string, unknown> = {
      vars: {
        data: Object.entries(vars).map(([key, value]) => ({ type: 'vars', attributes: { key, value, category } })),
      },
    };
    if (scope === 'project') relationships.projects = { data: [{ type: 'projects', id: f.alpha }] };
    if (scope === 'workspace') relationships.workspaces = { data: [{ type: 'workspaces', id: f.web }] };
    const res = await api.post('/api/v2/organizations/acme/varsets', {
      data: { type: 'varsets', attributes: { name, global: scope === 'global', priority }, relationships },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const workspaceVar = async (key: string, value: string) => {
    const res = await api.post(`/api/v2/workspaces/${f.web}/vars`, {
      data: { type: 'vars', attributes: { key, value, category: 'terraform' } },
    });
    expect(res.status, res.text).toBe(201);
  };
  const values = async (run: { key: string; value: string }[] = []) => {
    const e = await effectiveVariables(api.store.db, f.web, run);
    return {
      terraform: Object.fromEntries(e.terraform.map((v) => [v.key, v.value])),
      env: Object.fromEntries(e.env.map((v) => [v.key, v.value])),
      run: Object.fromEntries(e.runVariables.map((v) => [v.key, v.value])),
      dropped: e.overriddenRunVariables,
    };
  };

  it('workspace variables over workspace-scoped over project-scoped over global sets', async () => {
    await set('a-global', 'global', false, { w: 'global', x: 'global', y: 'global', z: 'global' });
    await set('b-project', 'project', false, { w: 'project', x: 'project', y: 'project' });
    await set('c-workspace', 'workspace', false, { w: 'workspace', x: 'workspace' });
    await workspaceVar('w', 'own');
    expect((await values()).terraform).toEqual({ w: 'own', x: 'workspace', y: 'project', z: 'global' });
  });

  it('a set applied to another project, or to nothing, does not reach the workspace', async () => {
    await set('elsewhere', 'none', false, { x: 'none' });
    const res = await api.post('/api/v2/organizations/acme/varsets', {
      data: {
        type: 'varsets',
        attributes: { name: 'beta-only' },
        relationships: {
          projects: { data: [{ type: 'projects', id: f.beta }] },
          vars: { data: [{ type: 'vars', attributes: { key: 'y', value: 'beta', category: 'terraform' } }] },
        },
      },
    });
    expect(res.status).toBe(201);
    expect((await values()).terraform).toEqual({});
  });

  it('same scope: the name first in code point order wins, whatever was created or edited last', async () => {
    const b = await set('B_Variable_Set', 'project', false, { x: 'b' });
    await set('A_Variable_Set', 'project', false, { x: 'a' });
    await set('a_lower', 'project', false, { x: 'lower' });
    expect((await values()).terraform.x).toBe('a');
    await api.patch(`/api/v2/varsets/${b}`, { data: { type: 'varsets', attributes: { description: 'touched' } } });
    expect((await values()).terraform.x).toBe('a');
  });

  it('priority sets beat workspace variables; a broader priority set beats a narrower one', async () => {
    await workspaceVar('x', 'own');
    await workspaceVar('y', 'own');
    await workspaceVar('z', 'own');
    await set('p-workspace', 'workspace', true, { x: 'p-ws', y: 'p-ws', z: 'p-ws' });
    await set('p-project', 'project', true, { x: 'p-project', y: 'p-project' });
    await set('p-global', 'global', true, { x: 'p-global' });
    expect((await values()).terraform).toEqual({ x: 'p-global', y: 'p-project', z: 'p-ws' });
  });

  it('run variables beat workspace variables and ordinary sets; priority sets beat run variables', async () => {
    await workspaceVar('own', 'own');
    await set('ordinary', 'global', false, { plain: 'set' });
    const prio = await set('prio', 'workspace', true, { enforced: 'prio' });
    const run = [
      { key: 'own', value: 'run' },
      { key: 'plain', value: 'run' },
      { key: 'enforced', value: 'run' },
    ];
    const v = await values(run);
    expect(v.run).toEqual({ own: 'run', plain: 'run' });
    expect(v.terraform).toEqual({ enforced: 'prio' });
    expect(v.dropped).toEqual([{ key: 'enforced', varsetId: prio }]);
  });

  it('environment variables of sets are resolved apart from Terraform variables', async () => {
    await set('env-global', 'global', false, { TOKEN: 'global', ONLY: 'global' }, 'env');
    await set('env-ws', 'workspace', false, { TOKEN: 'ws' }, 'env');
    await set('tf', 'workspace', false, { TOKEN: 'tf' });
    const v = await values();
    expect(v.env).toEqual({ TOKEN: 'ws', ONLY: 'global' });
    expect(v.terraform).toEqual({ TOKEN: 'tf' });
  });
});
