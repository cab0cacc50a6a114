import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/common/ids.js';
import { TestApi } from '../../helpers/api.js';
import { orgId } from '../../helpers/workspaces.js';

/*
 * `search[tags]` with `sort=name` (services/workspaces/workspaces-by-tags.ts) answers a page either by
 * sorting the matches or by walking the organization's names and probing the tags, chosen by how
 * many match and where the page lies, and falls back to the sort when a walk comes up short.
 * Every way must answer exactly what the plain definition answers: compared here, page by page
 * in both directions, with matches spread evenly, bunched in the middle of the name order (a
 * walk from either end comes up short), and few (sorted), on 1,200 workspaces written straight
 * into the database.
 */

const COUNT = 1200;
const nameOf = (i: number) => `${i % 2 === 0 ? 'Ws' : 'ws'}-${String(i).padStart(4, '0')}`;

/** Which tags workspace `i` carries (its name's place `i` in name order, which is creation order). */
function tagsOf(i: number): string[] {
  const tags: string[] = [];
  if (i % 3 !== 0) tags.push('even'); // 800: common, spread evenly
  if (i % 2 === 0) tags.push('half'); // 600
  if (i >= 540 && i < 850) tags.push('middle'); // 310, bunched in the middle of the name order
  if (i % 97 === 5) tags.push('rare'); // 13
  return tags;
}

describe('search[tags] with sort=name', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    const db = api.store.db;
    const made = await api.post('/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'template-of-copies' } },
    });
    expect(made.status).toBe(201);
    const { seq: _seq, ...template } = await db
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', made.body.data.id)
      .executeTakeFirstOrThrow();
    await db.deleteFrom('workspaces').where('id', '=', template.id).execute();
    const acme = await orgId(api, 'acme');
    const other = await orgId(api, 'other');
    const otherProject = await db
      .selectFrom('projects')
      .select('id')
      .where('organization_id', '=', other)
      .executeTakeFirstOrThrow();
    const tagIds = new Map<string, string>();
    for (const org of [acme, other]) {
      for (const tag of ['even', 'half', 'middle', 'rare']) {
        const id = newId('tag');
        tagIds.set(`${org}/${tag}`, id);
        await db
          .insertInto('tags')
          .values({ id, organization_id: org, name: tag, created_at: template.created_at })
          .execute();
      }
    }
    // Created in a shuffled order, so that creation order (seq) is not name order; another
    // organization's workspaces, with tags of the same names, interleaved.
    const order = Array.from({ length: COUNT }, (_, i) => i).sort(
      (a, b) => ((a * 7919) % COUNT) - ((b * 7919) % COUNT),
    );
    for (const i of order) {
      for (const [org, project] of [[acme, template.project_id], ...(i % 4 === 0 ? [[other, otherProject.id]] : [])]) {
        const id = newId('ws');
        const name = nameOf(i);
        await db
          .insertInto('workspaces')
          .values({ ...template, id, organization_id: org, project_id: project, name, name_lower: name.toLowerCase() })
          .execute();
        const { seq } = await db.selectFrom('workspaces').select('seq').where('id', '=', id).executeTakeFirstOrThrow();
        const tags = org === acme ? tagsOf(i) : ['even', 'half', 'middle', 'rare'];
        if (tags.length > 0) {
          await db
            .insertInto('workspace_tags')
            .values(tags.map((t) => ({ workspace_id: id, workspace_seq: seq, tag_id: tagIds.get(`${org}/${t}`)! })))
            .execute();
        }
      }
    }
  }, 120_000);
  afterAll(() => api.close());

  /** The names carrying every one of `tags`, in name order (names are unique case-insensitively). */
  function expected(tags: string[], descending: boolean): string[] {
    const names = Array.from({ length: COUNT }, (_, i) => i)
      .filter((i) => tags.every((t) => tagsOf(i).includes(t)))
      .map(nameOf)
      .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    return descending ? names.reverse() : names;
  }

  async function page(tags: string[], descending: boolean, size: number, number: number) {
    const res = await api.get(
      `/api/v2/organizations/acme/workspaces?search%5Btags%5D=${tags.join(',')}&sort=${descending ? '-' : ''}name&page%5Bsize%5D=${size}&page%5Bnumber%5D=${number}`,
    );
    expect(res.status).toBe(200);
    return {
      names: (res.body.data as { attributes: { name: string } }[]).map((w) => w.attributes.name),
      total: res.body.meta.pagination['total-count'] as number,
    };
  }

  it('answers every page as the sorted matches would, whichever way it is found', async () => {
    for (const tags of [['even'], ['even', 'half'], ['middle'], ['middle', 'even'], ['rare'], ['half', 'rare']]) {
      for (const descending of [false, true]) {
        const all = expected(tags, descending);
        for (const size of [1, 7, 100]) {
          const last = Math.max(1, Math.ceil(all.length / size));
          const numbers = new Set([1, 2, 3, Math.ceil(last / 2), last - 1, last, last + 1].filter((n) => n >= 1));
          for (const number of numbers) {
            const got = await page(tags, descending, size, number);
            const label = `search[tags]=${tags.join(',')} sort=${descending ? '-' : ''}name page ${number} of ${size}`;
            expect(got.names, label).toEqual(all.slice((number - 1) * size, number * size));
            expect(got.total, label).toBe(all.length);
          }
        }
      }
    }
  });

  it('walks every page of a common tag in order, both ways', async () => {
    for (const descending of [false, true]) {
      const seen: string[] = [];
      for (let number = 1; ; number++) {
        const got = await page(['even', 'half'], descending, 100, number);
        if (got.names.length === 0) break;
        seen.push(...got.names);
      }
      expect(seen).toEqual(expected(['even', 'half'], descending));
    }
  });

  it('answers an unknown tag with nothing', async () => {
    expect(await page(['even', 'nothing'], false, 20, 1)).toEqual({ names: [], total: 0 });
  });
});
