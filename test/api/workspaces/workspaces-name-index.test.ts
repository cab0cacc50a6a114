import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/common/ids.js';
import { isPostgres } from '../../../src/store/kind.js';
import { migrate } from '../../../src/store/migrate.js';
import { narrowingQuery, trigramQuery } from '../../../src/store/name-search.js';
import { TestApi } from '../../helpers/api.js';
import { orgId } from '../../helpers/workspaces.js';

/*
 * The name index of migration 019 (SQLite: FTS5 trigrams, narrowing the LIKE; PostgreSQL: a
 * pg_trgm GIN index) must answer exactly what the LIKE alone answered: compared here with a
 * brute-force filter over a few hundred random names holding LIKE's special characters (% _ \),
 * non-ASCII letters whose lower case differs (É, Σ, İ, the Kelvin sign), and needles of 1 to 5
 * characters. Names are inserted directly: the API only accepts [A-Za-z0-9_-], the index must
 * not depend on that.
 */

const ALPHABET = ['a', 'b', 'c', 'A', 'B', '-', '_', '%', '\\', '0', '1', 'É', 'é', 'ß', 'İ', 'Σ', 'ς', 'K', 'x', '😀'];

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = prng(19);
const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
const word = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(rand() * (max - min + 1)) }, () => pick(ALPHABET)).join('');

/** `count` names, distinct in lower case (the organization's names are unique so). */
function randomNames(count: number): string[] {
  const byLower = new Map<string, string>();
  while (byLower.size < count) {
    const name = word(1, 12);
    if (!byLower.has(name.toLowerCase())) byLower.set(name.toLowerCase(), name);
  }
  return [...byLower.values()];
}

async function insertWorkspaces(api: TestApi, org: string, names: string[]): Promise<void> {
  // Copies of a workspace made through the API (which is removed again), written straight in.
  const made = await api.post(`/api/v2/organizations/${org}/workspaces`, {
    data: { type: 'workspaces', attributes: { name: 'template-of-copies' } },
  });
  expect(made.status).toBe(201);
  const { seq: _seq, ...template } = await api.store.db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', made.body.data.id)
    .executeTakeFirstOrThrow();
  await api.store.db.deleteFrom('workspaces').where('id', '=', template.id).execute();
  for (let i = 0; i < names.length; i += 200) {
    await api.store.db
      .insertInto('workspaces')
      .values(
        names.slice(i, i + 200).map((name) => ({ ...template, id: newId('ws'), name, name_lower: name.toLowerCase() })),
      )
      .execute();
  }
}

/** Every name the list answers, over all its pages, and its total-count. */
async function listAll(api: TestApi, org: string, query: string): Promise<{ names: string[]; total: number }> {
  const names: string[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const res = await api.get(
      `/api/v2/organizations/${org}/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=${page}&${query}`,
    );
    expect(res.status, query).toBe(200);
    const pageNames = (res.body.data as { attributes: { name: string } }[]).map((w) => w.attributes.name);
    names.push(...pageNames);
    total = res.body.meta.pagination['total-count'] as number;
    if (res.body.meta.pagination['next-page'] === null) break;
  }
  return { names, total };
}

const sorted = (xs: string[]) => [...xs].sort();

/** What `search[wildcard-name]` means, written out: `*` first and/or last anchors nothing there. */
function wildcardMatches(pattern: string, name: string): boolean {
  const p = pattern.toLowerCase();
  const n = name.toLowerCase();
  const lead = p.startsWith('*');
  const trail = p.length > 1 && p.endsWith('*');
  const core = p.slice(lead ? 1 : 0, trail ? -1 : undefined);
  if (lead && trail) return n.includes(core);
  if (lead) return n.endsWith(core);
  if (trail) return n.startsWith(core);
  return n === core;
}

describe('workspace name searches through the name index (migration 019)', () => {
  let api: TestApi;
  let acme: string[];
  const needles: string[] = [];

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    acme = randomNames(300);
    await insertWorkspaces(api, 'acme', acme);
    // Another organization with names of the same kind (some the same): none may show in acme's lists.
    const shared = new Set(acme.slice(0, 50).map((n) => n.toLowerCase()));
    const others = randomNames(150).filter((n) => !shared.has(n.toLowerCase()));
    await insertWorkspaces(api, 'other', [...others, ...acme.slice(0, 50)]);
    // Needles: pieces of real names (1 to 5 characters, some with their case flipped), random
    // strings, and LIKE's special characters alone.
    for (let i = 0; i < 160; i++) {
      const name = pick(acme);
      const start = Math.floor(rand() * [...name].length);
      let piece = [...name].slice(start, start + 1 + Math.floor(rand() * 5)).join('');
      if (rand() < 0.3) piece = rand() < 0.5 ? piece.toUpperCase() : piece.toLowerCase();
      if (piece !== '') needles.push(piece);
    }
    for (let i = 0; i < 40; i++) needles.push(word(1, 4));
    needles.push('%', '_', '\\', '%%', 'a%', '_b', '\\%', 'AB', 'ab', 'abc', 'É', 'é', 'ss', 'SS', 'i̇', 'k', 'K');
  });
  afterAll(() => api.close());

  it('narrows by trigrams on SQLite for needles of three characters and more, never on PostgreSQL', async () => {
    // Otherwise this file would compare the plain LIKE with itself.
    expect((await narrowingQuery(api.store.db, 'ab-')) !== null).toBe(!isPostgres(api.store.db));
    expect(await narrowingQuery(api.store.db, 'ab')).toBeNull();
    expect(trigramQuery('a"b"c')).toBe('"a""b" AND """b""" AND "b""c"');
    expect(trigramQuery('ab')).toBeNull();
  });

  it('search[name] answers what a case-insensitive substring filter answers, page by page', async () => {
    for (const needle of needles) {
      const expected = acme.filter((n) => n.toLowerCase().includes(needle.toLowerCase()));
      const got = await listAll(api, 'acme', `search%5Bname%5D=${encodeURIComponent(needle)}`);
      expect(sorted(got.names), `search[name]=${needle}`).toEqual(sorted(expected));
      expect(got.total, `total-count of search[name]=${needle}`).toBe(expected.length);
    }
  });

  it('search[wildcard-name] answers prefixes, suffixes, both and exact names as written', async () => {
    const cores = needles.filter((n) => !n.includes('*')).slice(0, 90);
    cores.push(acme[0], acme[1].toUpperCase());
    for (const core of cores) {
      for (const pattern of [`${core}*`, `*${core}`, `*${core}*`, core]) {
        const expected = acme.filter((n) => wildcardMatches(pattern, n));
        const got = await listAll(api, 'acme', `search%5Bwildcard-name%5D=${encodeURIComponent(pattern)}`);
        expect(sorted(got.names), `search[wildcard-name]=${pattern}`).toEqual(sorted(expected));
        expect(got.total, `total-count of search[wildcard-name]=${pattern}`).toBe(expected.length);
      }
    }
  });

  it('follows renames and deletions (the triggers keep the index in step)', async () => {
    const db = api.store.db;
    const organizationId = await orgId(api, 'acme');
    const renamed = acme.slice(0, 40).map((n) => ({ from: n, to: `${n}-zq${n.length}Ψ` }));
    for (const r of renamed) {
      await db
        .updateTable('workspaces')
        .set({ name: r.to, name_lower: r.to.toLowerCase() })
        .where('organization_id', '=', organizationId)
        .where('name', '=', r.from)
        .execute();
    }
    const gone = acme.slice(40, 70);
    await db.deleteFrom('workspaces').where('organization_id', '=', organizationId).where('name', 'in', gone).execute();
    const now = [...renamed.map((r) => r.to), ...acme.slice(70)];
    for (const needle of ['zq', '-zq1', 'ψ', ...needles.slice(0, 60)]) {
      const expected = now.filter((n) => n.toLowerCase().includes(needle.toLowerCase()));
      const got = await listAll(api, 'acme', `search%5Bname%5D=${encodeURIComponent(needle)}`);
      expect(sorted(got.names), `search[name]=${needle} after renames`).toEqual(sorted(expected));
    }
    if (!isPostgres(db)) {
      // FTS5 compares the index with the workspaces table itself: any drift fails here.
      await sql`insert into workspace_name_trigrams (workspace_name_trigrams, rank) values ('integrity-check', 1)`.execute(
        db,
      );
    }
  });

  it('on PostgreSQL, the trigram index answers the LIKE itself when the planner takes it', async () => {
    if (!isPostgres(api.store.db)) return;
    const organizationId = await orgId(api, 'acme');
    await api.store.db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      const plan = await sql<{
        'QUERY PLAN': string;
      }>`explain select seq from workspaces where name_lower like ${'%abc%'} escape '\\'`.execute(tx);
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('workspaces_name_trigram');
      const all = (
        await tx.selectFrom('workspaces').select('name').where('organization_id', '=', organizationId).execute()
      ).map((r) => r.name);
      for (const needle of needles.slice(0, 80)) {
        const pattern = `%${needle.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
        const rows = await tx
          .selectFrom('workspaces')
          .select('name')
          .where('organization_id', '=', organizationId)
          .where(sql<boolean>`name_lower like ${pattern} escape '\\'`)
          .execute();
        const expected = all.filter((n) => n.toLowerCase().includes(needle.toLowerCase()));
        expect(sorted(rows.map((r) => r.name)), needle).toEqual(sorted(expected));
      }
    });
  });
});

describe('migration 019 on a database that already holds workspaces', () => {
  it('indexes the existing names (backfill), and the searches find them', async () => {
    const api = await TestApi.create();
    try {
      await api.createOrg('acme');
      const db = api.store.db;
      // The database as it was before migration 019: no indexes, no record of it.
      await sql`drop index workspaces_org_current_run`.execute(db);
      if (isPostgres(db)) {
        await sql`drop index if exists workspaces_name_trigram`.execute(db);
      } else {
        for (const trigger of ['insert', 'delete', 'update'])
          await sql`drop trigger ${sql.id(`workspace_name_trigrams_${trigger}`)}`.execute(db);
        await sql`drop table workspace_name_trigrams`.execute(db);
      }
      await db.deleteFrom('berth_migrations').where('version', '=', 19).execute();
      const names = ['alpha-prod', 'beta-prod', 'gamma-dev', 'Delta_Prod', 'epsilon'];
      await insertWorkspaces(api, 'acme', names);
      expect(await migrate(db)).toBe(1);
      expect((await listAll(api, 'acme', 'search%5Bname%5D=prod')).names.sort()).toEqual(
        ['Delta_Prod', 'alpha-prod', 'beta-prod'].sort(),
      );
      expect((await listAll(api, 'acme', 'search%5Bwildcard-name%5D=*-prod')).names.sort()).toEqual(
        ['alpha-prod', 'beta-prod'].sort(),
      );
      if (isPostgres(db)) {
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_indexes where indexname = 'workspaces_name_trigram' and schemaname = current_schema()`.execute(
          db,
        );
        expect(rows[0].n).toBe(1);
      } else {
        const { rows } = await sql<{
          seq: number;
        }>`select rowid as seq from workspace_name_trigrams where workspace_name_trigrams match ${trigramQuery('prod')!}`.execute(
          db,
        );
        expect(rows.length).toBe(3);
        await sql`insert into workspace_name_trigrams (workspace_name_trigrams, rank) values ('integrity-check', 1)`.execute(
          db,
        );
      }
    } finally {
      await api.close();
    }
  });
});

describe('name searches whose trigrams are common (their frequency estimated, not counted)', () => {
  // 3,000 names: trigrams of `prod` and `dev` in 1,500 each, `zzq` only in the newest 1,200 names
  // (rare among old names, common among new ones). Frequencies above 1,000 rows are estimated from
  // how far the first rows reach; the answers must not depend on it.
  let api: TestApi;
  let names: string[];

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    names = Array.from(
      { length: 3000 },
      (_, i) => `${['app', 'web', 'db'][i % 3]}${i % 50}-${i % 2 ? 'prod' : 'dev'}-${i >= 1800 ? 'zzq' : 'x'}${i}`,
    );
    await insertWorkspaces(api, 'acme', names);
  }, 60_000);
  afterAll(() => api.close());

  it('narrows on SQLite by an estimated trigram, and answers what the substring filter answers', async () => {
    if (!isPostgres(api.store.db)) {
      expect(await narrowingQuery(api.store.db, 'prod')).not.toBeNull();
      expect(await narrowingQuery(api.store.db, '-zzq')).not.toBeNull();
    }
    for (const needle of [
      'prod',
      '-prod-',
      'PROD-z',
      'zzq',
      'zzq19',
      'dev-x1',
      'app1',
      'web4-dev',
      'db7-prod-zzq2',
      'x',
    ]) {
      const expected = names.filter((n) => n.toLowerCase().includes(needle.toLowerCase()));
      const got = await listAll(api, 'acme', `search%5Bname%5D=${encodeURIComponent(needle)}`);
      expect(sorted(got.names), `search[name]=${needle}`).toEqual(sorted(expected));
      expect(got.total, `total-count of search[name]=${needle}`).toBe(expected.length);
      const wild = await listAll(api, 'acme', `search%5Bwildcard-name%5D=${encodeURIComponent(`*${needle}*`)}`);
      expect(sorted(wild.names), `search[wildcard-name]=*${needle}*`).toEqual(sorted(expected));
    }
  });
});
