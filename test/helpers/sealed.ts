import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../../src/store/schema.js';
import type { AccessFixture } from './access.js';

/** Sensitive values at rest, as the tests read them: the stored rows themselves, straight from the database. */

export interface StoredRow {
  table: 'workspace_variables' | 'varset_variables';
  id: string;
  key: string;
  value: string;
  sealed: number;
  sensitive: number;
}

/** Every stored variable of both tables, by table and id. */
export async function storedRows(db: Kysely<DB>): Promise<StoredRow[]> {
  const out: StoredRow[] = [];
  for (const table of ['workspace_variables', 'varset_variables'] as const) {
    const rows = await db
      .selectFrom(table)
      .select(['id', 'key', 'value', 'sealed', 'sensitive'])
      .orderBy('id')
      .execute();
    for (const r of rows) out.push({ table, ...r, sealed: Number(r.sealed), sensitive: Number(r.sensitive) });
  }
  return out;
}

/** The stored row of variable `id`. */
export async function storedRow(db: Kysely<DB>, id: string): Promise<StoredRow> {
  const row = (await storedRows(db)).find((r) => r.id === id);
  if (!row) throw new Error(`no stored variable ${id}`);
  return row;
}

const varBody = (attributes: Record<string, unknown>) => ({ data: { type: 'vars', attributes } });

/**
 * Sensitive values in every place they are written: a workspace's Terraform and environment
 * variables, a set created with a variable and one added to it (the set applies to `web`); and a
 * plain variable. Returns the ids.
 */
export async function seedSensitive(
  f: AccessFixture,
  secret: string,
): Promise<{ wsVar: string; wsEnv: string; plain: string; setVar: string; setAdded: string; varset: string }> {
  const t = { token: f.owner.token };
  const ws = async (attributes: Record<string, unknown>) => {
    const res = await f.api.post(`/api/v2/workspaces/${f.web}/vars`, varBody(attributes), t);
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const wsVar = await ws({ key: 'db_password', value: `${secret}-tf`, category: 'terraform', sensitive: true });
  const wsEnv = await ws({ key: 'API_TOKEN', value: `${secret}-env`, category: 'env', sensitive: true });
  const plain = await ws({ key: 'region', value: 'eu-west-1', category: 'terraform' });
  const set = await f.api.post(
    '/api/v2/organizations/acme/varsets',
    {
      data: {
        type: 'varsets',
        attributes: { name: 'creds' },
        relationships: {
          workspaces: { data: [{ type: 'workspaces', id: f.web }] },
          vars: {
            data: [
              {
                type: 'vars',
                attributes: { key: 'SET_TOKEN', value: `${secret}-set`, category: 'env', sensitive: true },
              },
            ],
          },
        },
      },
    },
    t,
  );
  expect(set.status, set.text).toBe(201);
  const varset = set.body.data.id as string;
  const listed = await f.api.get(`/api/v2/varsets/${varset}/relationships/vars`, t);
  const setVar = listed.body.data[0].id as string;
  const added = await f.api.post(
    `/api/v2/varsets/${varset}/relationships/vars`,
    varBody({ key: 'set_secret', value: `${secret}-added`, category: 'terraform', sensitive: true }),
    t,
  );
  expect(added.status, added.text).toBe(201);
  return { wsVar, wsEnv, plain, setVar, setAdded: added.body.data.id, varset };
}
