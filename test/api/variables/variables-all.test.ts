import { describe, expect, it } from 'vitest';
import { eachWithAccessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import type { TestApi } from '../../helpers/api.js';

/**
 * `GET /workspaces/:id/all-vars` (go-tfe's `Variables.ListAll`, read by the Terraform CLI's
 * `cloud` backend for `terraform import`): for each key of each category, the one variable whose
 * value a run of the workspace gets (its own, or a set's: global, through its project, applied to
 * it, priority), as `vars` resources; sensitive values null; read-variables needed, 404 otherwise.
 */

const P = '/api/v2';
const SECRET = 'all-vars-secret-Qm41ZxT8';

describe('GET /workspaces/:id/all-vars', () => {
  let api: TestApi;
  let f: AccessFixture;
  eachWithAccessFixture((a, fixture) => {
    api = a;
    f = fixture;
  });
  const t = () => ({ token: f.owner.token });
  const allVars = (token = f.owner.token, id = f.web) => api.get(`${P}/workspaces/${id}/all-vars`, { token });

  const workspaceVar = async (attributes: Record<string, unknown>) => {
    const res = await api.post(`${P}/workspaces/${f.web}/vars`, { data: { type: 'vars', attributes } }, t());
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  /** A set at `scope` with `vars` (key: attributes); the ids of its variables by key. */
  const set = async (
    name: string,
    scope: 'global' | 'project' | 'workspace' | 'other-project',
    vars: Record<string, Record<string, unknown>>,
    priority = false,
  ) => {
    const relationships: Record<string, unknown> = {
      vars: {
        data: Object.entries(vars).map(([key, a]) => ({
          type: 'vars',
          attributes: { key, category: 'terraform', ...a },
        })),
      },
    };
    if (scope === 'project') relationships.projects = { data: [{ type: 'projects', id: f.alpha }] };
    if (scope === 'other-project') relationships.projects = { data: [{ type: 'projects', id: f.beta }] };
    if (scope === 'workspace') relationships.workspaces = { data: [{ type: 'workspaces', id: f.web }] };
    const res = await api.post(
      `${P}/organizations/acme/varsets`,
      { data: { type: 'varsets', attributes: { name, global: scope === 'global', priority }, relationships } },
      t(),
    );
    expect(res.status, res.text).toBe(201);
    const listed = await api.get(`${P}/varsets/${res.body.data.id}/relationships/vars`, t());
    const ids: Record<string, string> = {};
    for (const v of listed.body.data) ids[`${v.attributes.category}:${v.attributes.key}`] = v.id;
    return { id: res.body.data.id as string, vars: ids };
  };

  it('answers the winning variable of each key: workspace, its sets by scope, priority sets, env apart', async () => {
    const global = await set('a-global', 'global', {
      own: { value: 'global' },
      viaProject: { value: 'global' },
      onlyGlobal: { value: 'global' },
    });
    const project = await set('b-project', 'project', {
      viaProject: { value: 'project' },
      viaWorkspaceSet: { value: 'project' },
    });
    const wsSet = await set('c-workspace', 'workspace', {
      viaWorkspaceSet: { value: 'workspace-set' },
      REGION: { value: 'set-env', category: 'env' },
    });
    const prio = await set('d-priority', 'workspace', { enforced: { value: 'priority' } }, true);
    await set('elsewhere', 'other-project', { stranger: { value: 'beta' } });
    const own = await workspaceVar({ key: 'own', value: 'workspace', category: 'terraform', description: 'mine' });
    await workspaceVar({ key: 'enforced', value: 'workspace', category: 'terraform' });
    const envOwn = await workspaceVar({ key: 'own', value: 'workspace-env', category: 'env' });

    const res = await allVars();
    expect(res.status, res.text).toBe(200);
    const rows = res.body.data.map((d: any) => [d.attributes.category, d.attributes.key, d.attributes.value, d.id]);
    // Terraform variables then environment variables, each by key (code points).
    expect(rows).toEqual([
      ['terraform', 'enforced', 'priority', prio.vars['terraform:enforced']],
      ['terraform', 'onlyGlobal', 'global', global.vars['terraform:onlyGlobal']],
      ['terraform', 'own', 'workspace', own],
      ['terraform', 'viaProject', 'project', project.vars['terraform:viaProject']],
      ['terraform', 'viaWorkspaceSet', 'workspace-set', wsSet.vars['terraform:viaWorkspaceSet']],
      ['env', 'REGION', 'set-env', wsSet.vars['env:REGION']],
      ['env', 'own', 'workspace-env', envOwn],
    ]);
    for (const d of res.body.data) expect(d.type).toBe('vars');

    // A workspace variable as its own endpoints answer it; a set's as the set's endpoints do.
    const mine = res.body.data.find((d: any) => d.id === own);
    expect(mine.attributes).toMatchObject({ key: 'own', description: 'mine', hcl: false, sensitive: false });
    expect(mine.attributes['version-id']).toMatch(/^[0-9a-f]{36}$/);
    expect(mine.relationships.configurable.data).toEqual({ id: f.web, type: 'workspaces' });
    const fromSet = res.body.data.find((d: any) => d.id === prio.vars['terraform:enforced']);
    expect(fromSet.relationships.varset.data).toEqual({ id: prio.id, type: 'varsets' });
    expect(fromSet.relationships.configurable).toBeUndefined();
  });

  it('withholds sensitive values, of the workspace and of sets', async () => {
    await workspaceVar({ key: 'password', value: SECRET, category: 'terraform', sensitive: true });
    await set('secrets', 'global', {
      TOKEN: { value: `${SECRET}-env`, category: 'env', sensitive: true },
      hcl_secret: { value: `{ a = "${SECRET}" }`, hcl: true, sensitive: true },
    });
    const res = await allVars();
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(SECRET);
    const byKey = Object.fromEntries(res.body.data.map((d: any) => [d.attributes.key, d.attributes]));
    expect(byKey.password).toMatchObject({ value: null, sensitive: true });
    expect(byKey.TOKEN).toMatchObject({ value: null, sensitive: true, category: 'env' });
    expect(byKey.hcl_secret).toMatchObject({ value: null, sensitive: true, hcl: true });
  });

  it('follows changes at once: moving the workspace to another project changes what it inherits', async () => {
    await set('alpha-set', 'project', { region: { value: 'alpha' } });
    await set('beta-set', 'other-project', { region: { value: 'beta' } });
    const values = async () => (await allVars()).body.data.map((d: any) => `${d.attributes.key}=${d.attributes.value}`);
    expect(await values()).toEqual(['region=alpha']);
    const move = await api.post(
      `${P}/projects/${f.beta}/relationships/workspaces`,
      { data: [{ type: 'workspaces', id: f.web }] },
      t(),
    );
    expect(move.status, move.text).toBe(204);
    expect(await values()).toEqual(['region=beta']);
  });

  it('an empty list for a workspace with no variables', async () => {
    const res = await allVars();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('needs read-variables: readers of variables get it; others, strangers and unknown ids get 404', async () => {
    await workspaceVar({ key: 'k', value: 'v', category: 'terraform' });
    const reader = await teamMember(f, 'readers');
    await grantWorkspace(f, reader.teamId, f.web, 'read');
    expect((await allVars(reader.token)).body.data.map((d: any) => d.attributes.key)).toEqual(['k']);

    const noVars = await teamMember(f, 'no-vars');
    await grantWorkspace(f, noVars.teamId, f.web, 'custom', { variables: 'none' });
    const refused = await allVars(noVars.token);
    expect(refused.status).toBe(404);
    expect(refused.body.errors[0].detail).toMatch(/not authorized to read the variables of workspace web/);

    const member = await teamMember(f, 'nobody');
    expect((await allVars(member.token)).status).toBe(404);
    const stranger = await api.userToken('stranger');
    expect((await api.createOrg('other', stranger.token)).status).toBe(201);
    const res = await allVars(stranger.token);
    expect(res.status).toBe(404);
    expect(res.body.errors[0].detail).toMatch(/workspace .* not found/);
    expect(res.text).not.toContain('"k"');

    const unknown = await allVars(f.owner.token, 'ws-AAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].detail).toMatch(/workspace .* not found/);
  });
});
