import { sql, type Kysely } from 'kysely';
import { LIMIT_ONE } from '../literal-limit.js';
import type { DB } from '../schema.js';
import { writeTransaction, type Tx } from '../transaction.js';
import { open, seal, sealedKeyId, type SecretKey } from './cipher.js';
import { describeSource, keyringOf, secretKeyUnavailable } from './keyring.js';

/**
 * The sensitive values of the database, sealed (migration 041: `sealed` = 1, `value` the
 * ciphertext). Services seal what they write and open what a run is given; the database names
 * the key values are sealed with (`settings` row `secret-key-id`: its id, never the key), so a
 * berth that holds another key refuses to seal with it instead of writing what nobody could
 * open.
 */

export type SealedTable = 'workspace_variables' | 'varset_variables';
export const SEALED_TABLES: readonly SealedTable[] = ['workspace_variables', 'varset_variables'];

/** The settings row naming the key the database's values are sealed with. */
export const KEY_ID_SETTING = 'secret-key-id';

/** Where a value is stored: part of what its ciphertext is bound to. */
export const placeOf = (table: SealedTable, id: string): string => `${table}/${id}`;

/** The id of the key the database's values are sealed with, or null before any key was set up. */
export async function recordedKeyId(db: Kysely<DB>): Promise<string | null> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', KEY_ID_SETTING)
    .limit(LIMIT_ONE)
    .executeTakeFirst();
  return row?.value ?? null;
}

/**
 * The ciphertext to store for `clear` in row `id` of `table`, inside the write transaction `tx`
 * of the store `db`: sealed with the key the database names (after a rotation by another
 * process, the key file read again gives it), else a 503 that says which key is missing.
 */
export async function sealValue(
  db: Kysely<DB>,
  tx: Tx,
  table: SealedTable,
  id: string,
  clear: string,
): Promise<string> {
  const keyring = keyringOf(db);
  const keyId = await recordedKeyId(tx);
  if (keyId === null)
    throw secretKeyUnavailable(
      `no secret key is set up for this database (${keyring.problem ?? describeSource(keyring.source)}), so berth cannot store a sensitive value`,
    );
  const key = keyring.key(keyId);
  if (!key) throw keyring.missing(keyId);
  return seal(key, clear, placeOf(table, id));
}

/** The value sealed in row `id` of `table`: for a run, never for an answer. A 503 when it cannot be opened. */
export function openValue(db: Kysely<DB>, table: SealedTable, id: string, sealed: string): string {
  const keyring = keyringOf(db);
  const keyId = sealedKeyId(sealed);
  if (keyId === null)
    throw secretKeyUnavailable(`the stored value of variable ${id} is not in a form this berth can decrypt`);
  const key = keyring.key(keyId);
  if (!key) throw keyring.missing(keyId);
  const clear = open(key, sealed, placeOf(table, id));
  if (clear === null)
    throw secretKeyUnavailable(
      `the sensitive value of variable ${id} does not decrypt with key ${keyId} of ${describeSource(keyring.source)}: the key does not belong to this database, or the stored value was altered`,
    );
  return clear;
}

/** Sensitive values stored in clear (by a berth older than migration 041): through the partial index of 041. */
const inClear = sql<boolean>`sensitive = 1 and sealed = 0`;

/**
 * Seals every sensitive value stored in clear with `key`, the one the database names (checked
 * again inside the transaction, which waits for a rotation under way): how a database made by an
 * older berth is sealed at its first start with a key. One write transaction per table with such
 * values; none when there are none (one indexed lookup each). Returns how many were sealed.
 */
export async function sealClearValues(db: Kysely<DB>, key: SecretKey): Promise<number> {
  let sealed = 0;
  for (const table of SEALED_TABLES) {
    const any = await db.selectFrom(table).select('seq').where(inClear).limit(LIMIT_ONE).executeTakeFirst();
    if (!any) continue;
    sealed += await writeTransaction(db, async (tx) => {
      if ((await recordedKeyId(tx)) !== key.id) return 0;
      const rows = await tx.selectFrom(table).select(['id', 'value']).where(inClear).execute();
      for (const r of rows)
        await tx
          .updateTable(table)
          .set({ value: seal(key, r.value, placeOf(table, r.id)), sealed: 1 })
          .where('id', '=', r.id)
          .execute();
      return rows.length;
    });
  }
  return sealed;
}
