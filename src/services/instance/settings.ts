import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import { DEFAULT_SETTINGS, type InstanceSettings } from '../context.js';

export const EDITIONS = ['self-hosted', 'hosted'] as const;

/** Reads the instance settings stored in the database, with defaults for unset keys. */
export async function loadSettings(db: Kysely<DB>): Promise<InstanceSettings> {
  const rows = await db.selectFrom('settings').selectAll().execute();
  const map = new Map(rows.map((r) => [r.key, r.value]));
  const edition = map.get('edition');
  return { ...DEFAULT_SETTINGS, edition: edition === 'hosted' ? 'hosted' : 'self-hosted' };
}

/**
 * Stores the edition (`berth serve --edition`). It stays in the database, so later starts and
 * local mode over the same file behave the same way.
 */
export async function saveEdition(db: Kysely<DB>, edition: InstanceSettings['edition']): Promise<void> {
  await writeTransaction(db, async (tx) => {
    await tx
      .insertInto('settings')
      .values({ key: 'edition', value: edition })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: edition }))
      .execute();
  });
}
