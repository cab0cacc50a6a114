import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/common/ids.js';
import { TestApi } from '../../helpers/api.js';
import { bindings, createWorkspace, insertProject, orgId } from '../../helpers/workspaces.js';
import { workspaceSeq } from '../../../src/services/workspaces/workspace-seq.js';

const names = (res: any): string[] => res.body.data.map((w: any) => w.attributes.name);
const list = (api: TestApi, query: string) =>
  api.get(`/api/v2/organizations/acme/workspaces${query ? `?${query}` : ''}`);

describe('workspace list: pagination across 45 workspaces', () => {
  let api: TestApi;
  // Created in an order that differs from name order, to tell creation order from sorting.
  const created = Array.from({ length: 45 }, (_, i) => `ws-${String((i * 7) % 45).padStart(2, '0')}`);

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    for (const name of created) await createWorkspace(api, 'acme', { name });
  });
  afterAll(() => api.close());

  it('pages by 20 by default, in creation order, with meta and links', async () => {
    const first = await list(api, '');
    expect(first.status).toBe(200);
    expect(names(first)).toEqual(created.slice(0, 20));
    expect(first.body.meta.pagination).toEqual({
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': 2,
      'total-pages': 3,
      'total-count': 45,
    });
    expect(first.body.meta['next-page']).toBe(2);
    expect(first.body.links.next).toMatch(
      /\/api\/v2\/organizations\/acme\/workspaces\?page%5Bnumber%5D=2&page%5Bsize%5D=20$/,
    );
    const second = await list(api, 'page[number]=2');
    expect(names(second)).toEqual(created.slice(20, 40));
    expect(second.body.meta.pagination).toMatchObject({ 'current-page': 2, 'prev-page': 1, 'next-page': 3 });
    const third = await list(api, 'page%5Bnumber%5D=3&page%5Bsize%5D=20');
    expect(names(third)).toEqual(created.slice(40));
    expect(third.body.meta.pagination).toMatchObject({ 'current-page': 3, 'next-page': null, 'total-count': 45 });
    const beyond = await list(api, 'page[number]=4');
    expect(beyond.body.data).toEqual([]);
  });

  it('follows next-page to every workspace exactly once, stable across requests', async () => {
    const seen: string[] = [];
    let page: number | null = 1;
    while (page !== null) {
      const res = await list(api, `page[number]=${page}&page[size]=7`);
      seen.push(...names(res));
      page = res.body.meta.pagination['next-page'];
    }
    expect(seen).toEqual(created);
  });

  it('sorts by name both ways across pages', async () => {
    const sorted = [...created].sort();
    const a = await list(api, 'sort=name&page[size]=100');
    expect(names(a)).toEqual(sorted);
    const d = await list(api, 'sort=-name&page[size]=30&page[number]=1');
    expect(names(d)).toEqual([...sorted].reverse().slice(0, 30));
  });

  it('rejects page sizes above 100 and unknown sorts', async () => {
    const big = await list(api, 'page[size]=101');
    expect(big.status).toBe(422);
    expect(big.body.errors[0].detail).toBe('page[size] must be between 1 and 100');
    const sort = await list(api, 'sort=created-at');
    expect(sort.status).toBe(400);
    expect(sort.body.errors[0]).toMatchObject({ status: '400', title: 'bad request', source: { parameter: 'sort' } });
  });
});

describe('workspace list: filters and sorts', () => {
  let api: TestApi;
  let projectA: string;
  let projectB: string;
  const ids = new Map<string, string>();

  async function setRun(name: string, status: string, createdAt: string) {
    await api.store.db
      .updateTable('workspaces')
      .set({ current_run_id: newId('run'), current_run_status: status, current_run_created_at: createdAt })
      .where('id', '=', ids.get(name)!)
      .execute();
  }

  async function flatTag(name: string, ...tags: string[]) {
    const org = await orgId(api, 'acme');
    for (const tag of tags) {
      let row = await api.store.db
        .selectFrom('tags')
        .select('id')
        .where('organization_id', '=', org)
        .where('name', '=', tag)
        .executeTakeFirst();
      if (!row) {
        row = { id: newId('tag') };
        await api.store.db
          .insertInto('tags')
          .values({ id: row.id, organization_id: org, name: tag, created_at: new Date().toISOString() })
          .execute();
      }
      await api.store.db
        .insertInto('workspace_tags')
        .values({
          workspace_id: ids.get(name)!,
          workspace_seq: workspaceSeq(api.store.db, ids.get(name)!),
          tag_id: row.id,
        })
        .execute();
    }
  }

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    projectA = await insertProject(api, 'acme', 'Alpha', { tags: { team: 'core', cost: '1' } });
    projectB = await insertProject(api, 'acme', 'Beta', { tags: { team: 'edge' } });
    const make = async (name: string, project: string | null, tags?: Record<string, string>) => {
      const rels: Record<string, unknown> = {};
      if (project) rels.project = { data: { type: 'projects', id: project } };
      if (tags) rels['tag-bindings'] = bindings(tags);
      ids.set(name, (await createWorkspace(api, 'acme', { name }, rels)).body.data.id);
    };
    await make('app-prod', projectA, { env: 'prod' });
    await make('app-staging', projectA, { env: 'staging', team: 'qa' });
    await make('db-prod', projectB, { env: 'prod', tier: '' });
    await make('db_Test', null);
    await make('web-prod-eu', null, { env: 'prod' });
    await createWorkspace(api, 'other', { name: 'app-prod-other' });
    await flatTag('app-prod', 'linux', 'blue');
    await flatTag('db-prod', 'linux');
    await flatTag('web-prod-eu', 'windows', 'blue');
    await setRun('app-prod', 'applied', '2024-01-03T00:00:00.000Z');
    await setRun('db-prod', 'errored', '2024-01-01T00:00:00.000Z');
    await setRun('web-prod-eu', 'planning', '2024-01-02T00:00:00.000Z');
  });
  afterAll(() => api.close());

  it("lists only the organization's workspaces", async () => {
    expect(names(await list(api, ''))).toEqual(['app-prod', 'app-staging', 'db-prod', 'db_Test', 'web-prod-eu']);
  });

  it('search[name]: case-insensitive substring, with _ and % matched literally', async () => {
    expect(names(await list(api, 'search[name]=PROD'))).toEqual(['app-prod', 'db-prod', 'web-prod-eu']);
    expect(names(await list(api, 'search[name]=_t'))).toEqual(['db_Test']);
    expect(names(await list(api, 'search[name]=%25'))).toEqual([]);
  });

  it('search[wildcard-name]: prefix, suffix, both, and exact', async () => {
    expect(names(await list(api, 'search[wildcard-name]=*-prod'))).toEqual(['app-prod', 'db-prod']);
    expect(names(await list(api, 'search[wildcard-name]=app-*'))).toEqual(['app-prod', 'app-staging']);
    expect(names(await list(api, 'search[wildcard-name]=*prod*'))).toEqual(['app-prod', 'db-prod', 'web-prod-eu']);
    expect(names(await list(api, 'search[wildcard-name]=DB_test'))).toEqual(['db_Test']);
  });

  it('search[tags]: workspaces having all the flat tags; search[exclude-tags]: none of them', async () => {
    expect(names(await list(api, 'search[tags]=linux'))).toEqual(['app-prod', 'db-prod']);
    expect(names(await list(api, 'search[tags]=linux,blue'))).toEqual(['app-prod']);
    expect(names(await list(api, 'search[tags]=blue,linux,linux'))).toEqual(['app-prod']);
    expect(names(await list(api, 'search[tags]=linux,blue,nothing'))).toEqual([]);
    expect(names(await list(api, 'search[tags]=nothing'))).toEqual([]);
    expect(names(await list(api, 'search[exclude-tags]=blue'))).toEqual(['app-staging', 'db-prod', 'db_Test']);
    expect(names(await list(api, 'search[exclude-tags]=linux,windows'))).toEqual(['app-staging', 'db_Test']);
    expect(names(await list(api, 'search[tags]=linux&search[exclude-tags]=blue'))).toEqual(['db-prod']);
  });

  it('tag-names shows the flat tags in the order they were added', async () => {
    const res = await list(api, 'search[name]=app-prod');
    expect(res.body.data[0].attributes['tag-names']).toEqual(['linux', 'blue']);
  });

  it('filter[project][id]', async () => {
    expect(names(await list(api, `filter[project][id]=${projectA}`))).toEqual(['app-prod', 'app-staging']);
    expect(names(await list(api, `filter%5Bproject%5D%5Bid%5D=${projectB}`))).toEqual(['db-prod']);
  });

  it('filter[current-run][status], one or several statuses', async () => {
    expect(names(await list(api, 'filter[current-run][status]=applied'))).toEqual(['app-prod']);
    expect(names(await list(api, 'filter[current-run][status]=errored,planning'))).toEqual(['db-prod', 'web-prod-eu']);
    expect(names(await list(api, 'filter[current-run][status]=pending'))).toEqual([]);
  });

  it('filter[tagged]: key with value, key with empty value (any), AND across i, inherited from the project', async () => {
    expect(names(await list(api, 'filter[tagged][0][key]=env&filter[tagged][0][value]=prod'))).toEqual([
      'app-prod',
      'db-prod',
      'web-prod-eu',
    ]);
    expect(names(await list(api, 'filter[tagged][0][key]=env&filter[tagged][0][value]='))).toEqual([
      'app-prod',
      'app-staging',
      'db-prod',
      'web-prod-eu',
    ]);
    expect(names(await list(api, 'filter[tagged][0][key]=tier'))).toEqual(['db-prod']);
    expect(
      names(
        await list(
          api,
          'filter[tagged][0][key]=env&filter[tagged][0][value]=prod&filter[tagged][1][key]=team&filter[tagged][1][value]=core',
        ),
      ),
    ).toEqual(['app-prod']);
    // Inherited: Alpha's workspaces carry team=core unless they set team themselves (app-staging: qa).
    expect(names(await list(api, 'filter[tagged][0][key]=team&filter[tagged][0][value]=core'))).toEqual(['app-prod']);
    expect(names(await list(api, 'filter[tagged][0][key]=team&filter[tagged][0][value]=qa'))).toEqual(['app-staging']);
    expect(names(await list(api, 'filter[tagged][0][key]=team'))).toEqual(['app-prod', 'app-staging', 'db-prod']);
    expect(names(await list(api, 'filter[tagged][0][key]=cost&filter[tagged][0][value]=1'))).toEqual([
      'app-prod',
      'app-staging',
    ]);
  });

  it('filter[tagged][i][value] alone: an effective binding of any key with that value', async () => {
    const valued = async (value: string) => {
      const res = await list(api, `filter[tagged][0][value]=${value}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.meta.pagination['total-count']).toBe(res.body.data.length);
      return names(res);
    };
    expect(await valued('prod')).toEqual(['app-prod', 'db-prod', 'web-prod-eu']);
    // Inherited from Alpha (team=core), except where the workspace binds team itself (app-staging: qa).
    expect(await valued('core')).toEqual(['app-prod']);
    expect(await valued('qa')).toEqual(['app-staging']);
    expect(await valued('edge')).toEqual(['db-prod']);
    expect(await valued('1')).toEqual(['app-prod', 'app-staging']);
    expect(await valued('nothing')).toEqual([]);
    // Combined with a key filter of another index (AND), in either order.
    expect(names(await list(api, 'filter[tagged][0][value]=prod&filter[tagged][1][key]=team'))).toEqual([
      'app-prod',
      'db-prod',
    ]);
    expect(names(await list(api, 'filter[tagged][0][key]=team&filter[tagged][1][value]=prod'))).toEqual([
      'app-prod',
      'db-prod',
    ]);
  });

  it('a malformed or unknown filter[...] or search[...] parameter is a 400 naming it, never the whole list', async () => {
    for (const query of [
      'filter[tagged][abc][key]=x',
      'filter[tagged][0]=x',
      'filter[tagged][0][kee]=x',
      'filter[project]=x',
      'search[nme]=x',
      'filter%5Bprojects%5D%5Bid%5D=x',
    ]) {
      const res = await list(api, query);
      expect(res.status, query).toBe(400);
      const parameter = decodeURIComponent(query.split('=')[0]);
      expect(res.body.errors[0].source, query).toEqual({ parameter });
      expect(res.body.errors[0].detail, query).toContain(parameter);
    }
    expect((await list(api, 'q=anything&page[size]=5')).status).toBe(200);
  });

  it("a project's new tag reaches its workspaces in filters immediately, and moving changes what they inherit", async () => {
    await api.store.db
      .insertInto('project_tag_bindings')
      .values({
        id: newId('tb'),
        project_id: projectB,
        key: 'region',
        value: 'eu',
        created_at: new Date().toISOString(),
      })
      .execute();
    expect(names(await list(api, 'filter[tagged][0][key]=region&filter[tagged][0][value]=eu'))).toEqual(['db-prod']);
    await api.patch(`/api/v2/workspaces/${ids.get('db_Test')}`, {
      data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: projectB } } } },
    });
    expect(names(await list(api, 'filter[tagged][0][key]=region&filter[tagged][0][value]=eu'))).toEqual([
      'db-prod',
      'db_Test',
    ]);
    await api.patch(`/api/v2/workspaces/${ids.get('db_Test')}`, {
      data: {
        type: 'workspaces',
        relationships: {
          project: {
            data: {
              type: 'projects',
              id: (await api.get('/api/v2/organizations/acme')).body.data.relationships['default-project'].data.id,
            },
          },
        },
      },
    });
  });

  it('combines filters with AND', async () => {
    expect(names(await list(api, `search[name]=prod&filter[project][id]=${projectA}`))).toEqual(['app-prod']);
  });

  it('total-count agrees with the matches whatever the page, for every filter (counted apart from the page)', async () => {
    const queries = [
      'filter[tagged][0][key]=env&filter[tagged][0][value]=prod',
      'filter[tagged][0][key]=team',
      'filter[tagged][0][key]=team&filter[tagged][0][value]=core',
      'filter[tagged][0][key]=env&filter[tagged][0][value]=&filter[tagged][1][key]=team',
      'filter[tagged][0][key]=env&search[name]=app',
      `filter[tagged][0][key]=team&filter[project][id]=${projectA}`,
      'filter[tagged][0][key]=nothing',
      'search[name]=prod',
    ];
    for (const q of queries) {
      const all = names(await list(api, `${q}&page[size]=100`));
      const one = await list(api, `${q}&page[size]=1`);
      expect(one.body.meta.pagination['total-count'], q).toBe(all.length);
      expect(names(one), q).toEqual(all.slice(0, 1));
      const beyond = await list(api, `${q}&page[size]=1&page[number]=40`);
      expect(beyond.body.data, q).toEqual([]);
      expect(beyond.body.meta.pagination['total-count'], q).toBe(all.length);
    }
    // The split count never counts a workspace twice: db-prod has its own env and its project's.
    expect((await list(api, 'filter[tagged][0][key]=env')).body.meta.pagination['total-count']).toBe(4);
  });

  it('sort=current-run.created-at both ways (workspaces without a run last)', async () => {
    expect(names(await list(api, 'sort=current-run.created-at'))).toEqual([
      'db-prod',
      'web-prod-eu',
      'app-prod',
      'app-staging',
      'db_Test',
    ]);
    expect(names(await list(api, 'sort=-current-run.created-at'))).toEqual([
      'app-prod',
      'web-prod-eu',
      'db-prod',
      'db_Test',
      'app-staging',
    ]);
  });

  it('sort=latest-change-at both ways', async () => {
    const times: Record<string, string> = {
      'app-prod': '2024-05-03',
      'app-staging': '2024-05-01',
      'db-prod': '2024-05-05',
      db_Test: '2024-05-02',
      'web-prod-eu': '2024-05-04',
    };
    for (const [name, day] of Object.entries(times)) {
      await api.store.db
        .updateTable('workspaces')
        .set({ latest_change_at: `${day}T00:00:00.000Z` })
        .where('id', '=', ids.get(name)!)
        .execute();
    }
    expect(names(await list(api, 'sort=latest-change-at'))).toEqual([
      'app-staging',
      'db_Test',
      'app-prod',
      'web-prod-eu',
      'db-prod',
    ]);
    expect(names(await list(api, 'sort=-latest-change-at'))).toEqual([
      'db-prod',
      'web-prod-eu',
      'app-prod',
      'db_Test',
      'app-staging',
    ]);
    const one = await api.get(`/api/v2/workspaces/${ids.get('db-prod')}`);
    expect(one.body.data.attributes['latest-change-at']).toBe('2024-05-05T00:00:00.000Z');
  });

  it('include=project,organization on a list sideloads each once', async () => {
    const res = await list(api, 'include=project,organization');
    const types = res.body.included.map((r: any) => `${r.type}:${r.id}`).sort();
    const projectIds = [...new Set<string>(res.body.data.map((w: any) => w.relationships.project.data.id))];
    expect(types).toEqual(['organizations:acme', ...projectIds.map((p) => `projects:${p}`)].sort());
    const withProjects = res.body.included.find((r: any) => r.id === projectA);
    expect(withProjects.attributes['workspace-count']).toBe(2);
  });

  it('include=effective_tag_bindings: own and inherited bindings, inherited ones linked to their project', async () => {
    const res = await list(api, `include=effective_tag_bindings&filter[project][id]=${projectA}`);
    const staging = res.body.data.find((w: any) => w.attributes.name === 'app-staging');
    const linkage = staging.relationships['effective-tag-bindings'];
    expect(linkage.links.related).toBe(`/api/v2/workspaces/${staging.id}/effective-tag-bindings`);
    const mine = res.body.included.filter((r: any) => linkage.data.some((d: any) => d.id === r.id));
    expect(mine.map((r: any) => [r.attributes.key, r.attributes.value, r.links?.['inherited-from'] ?? null])).toEqual([
      ['env', 'staging', null],
      ['team', 'qa', null],
      ['cost', '1', `/api/v2/projects/${projectA}`],
    ]);
    for (const own of mine.filter((r: any) => r.attributes.key !== 'cost')) expect('links' in own).toBe(false);
    expect(mine.every((r: any) => r.type === 'effective-tag-bindings' && /^[0-9a-f]{16}$/.test(r.id))).toBe(true);
  });
});
