import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createProject } from '../../helpers/projects.js';
import { bindings, createWorkspace } from '../../helpers/workspaces.js';

const tag = (name: string) => ({ type: 'tags', attributes: { name } });

/**
 * `search[tags]` matches a flat tag of the name or a key-value tag of that key, as HCP Terraform
 * does: the Terraform CLI lists a `cloud` block's key-value tags (`tags = { env = "prod" }`) with
 * `filter[tagged][i][key]/[value]` and `search[tags]=<the keys>` together, and must find the
 * workspaces it created.
 */
describe('search[tags] matches the keys of key-value tags too', () => {
  let api: TestApi;
  const names = async (query: string) => {
    const res = await api.get(`/api/v2/organizations/acme/workspaces?${query}`);
    expect(res.status, res.text).toBe(200);
    return {
      names: res.body.data.map((w: any) => w.attributes.name).sort(),
      total: res.body.meta.pagination['total-count'],
    };
  };

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
    const inherited = await createProject(api, 'acme', { name: 'tagged project' }, [{ key: 'env', value: 'dev' }]);
    await createWorkspace(api, 'acme', { name: 'kv-prod' }, { 'tag-bindings': bindings({ env: 'prod', team: 'web' }) });
    await createWorkspace(api, 'acme', { name: 'kv-staging' }, { 'tag-bindings': bindings({ env: 'staging' }) });
    await createWorkspace(api, 'acme', { name: 'flat-env' }, { tags: { data: [tag('env')] } });
    await createWorkspace(
      api,
      'acme',
      { name: 'from-project' },
      { project: { data: { type: 'projects', id: inherited.id } } },
    );
    await createWorkspace(api, 'acme', { name: 'untagged' });
  });
  afterAll(() => api.close());

  it('a key alone matches own and inherited bindings of that key and flat tags of that name', async () => {
    expect(await names('search%5Btags%5D=env')).toEqual({
      names: ['flat-env', 'from-project', 'kv-prod', 'kv-staging'],
      total: 4,
    });
  });

  it('several names must all match, each either way', async () => {
    expect(await names('search%5Btags%5D=env,team')).toEqual({ names: ['kv-prod'], total: 1 });
  });

  it("the CLI's own query (filter[tagged] and search[tags] of the keys) finds the workspace", async () => {
    const q =
      'filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod' +
      '&filter%5Btagged%5D%5B1%5D%5Bkey%5D=team&filter%5Btagged%5D%5B1%5D%5Bvalue%5D=web&search%5Btags%5D=env,team';
    expect(await names(q)).toEqual({ names: ['kv-prod'], total: 1 });
  });

  it('a name that is no key stays a flat-tag search; sorting by name works with keys', async () => {
    expect(await names('search%5Btags%5D=nothing')).toEqual({ names: [], total: 0 });
    const sorted = await api.get('/api/v2/organizations/acme/workspaces?search%5Btags%5D=env&sort=-name');
    expect(sorted.body.data.map((w: any) => w.attributes.name)).toEqual([
      'kv-staging',
      'kv-prod',
      'from-project',
      'flat-env',
    ]);
  });

  it('pages count every match', async () => {
    const first = await api.get('/api/v2/organizations/acme/workspaces?search%5Btags%5D=env&page%5Bsize%5D=3');
    expect(first.body.data).toHaveLength(3);
    expect(first.body.meta.pagination['total-count']).toBe(4);
    const second = await api.get(
      '/api/v2/organizations/acme/workspaces?search%5Btags%5D=env&page%5Bsize%5D=3&page%5Bnumber%5D=2',
    );
    expect(second.body.data).toHaveLength(1);
  });
});
