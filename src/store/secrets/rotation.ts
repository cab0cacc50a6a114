import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { BerthError, conflict } from '../../domain/common/errors.js';
import { literalLimit } from '../literal-limit.js';
import type { Store } from '../open.js';
import { writeTransaction, type Tx } from '../transaction.js';
import { newSecretKey, open, seal, sealedKeyId, type SecretKey } from './cipher.js';
import { createKeyFile, writeKeyFile } from './key-file.js';
import { describeSource, Keyring, secretKeyUnavailable, type SecretKeySource } from './keyring.js';
import { KEY_ID_SETTING, placeOf, recordedKeyId, SEALED_TABLES, type SealedTable } from './sealed-values.js';

export interface RotationResult {
  /** The key file that holds the new key. */
  keyFile: string;
  previousKeyId: string;
  keyId: string;
  /** Sensitive values sealed with the new key (those an older berth stored in clear included). */
  values: number;
}

/** Rows re-sealed per query: a value is at most 256 KiB. */
const PAGE = 100;

/**
 * Seals every sensitive value of the store with a new key, in one write transaction (on
 * PostgreSQL the exclusive write lock: no write of any instance runs meanwhile), and names the
 * new key in the database in that same transaction. The new key reaches its file before that
 * transaction commits, the old key leaves it only after:
 * - in place (`source`'s key file): the file holds the old and the new key while the transaction
 *   runs, then the new key alone. A crash before the commit leaves the database on the old key,
 *   which the file still holds; a crash after it leaves both in the file, the new one in use
 *   (the next rotation drops the stale one). Either way every value opens.
 * - into `newKeyFile` (a new file; needed when the key comes from BERTH_SECRET_KEY): created before
 *   the transaction and left as is whatever happens; the old key's source is not touched.
 * A key that does not open every value stops the rotation before anything changed (a 503).
 * The file writes happen while the write lock is held, so two rotations never interleave them.
 */
export async function rotateSecretKey(
  store: Store,
  source: SecretKeySource,
  options: { newKeyFile?: string } = {},
): Promise<RotationResult> {
  const target = options.newKeyFile ? resolve(options.newKeyFile) : undefined;
  if (source.kind !== 'file' && target === undefined)
    throw conflict(
      `the key comes from ${describeSource(source)}, which berth cannot rewrite: give --new-key-file PATH for the new key`,
    );
  if (target !== undefined && existsSync(target))
    throw conflict(`${target} already exists: --new-key-file names a new file (berth never overwrites a key file)`);
  const fresh = newSecretKey();
  const result = await writeTransaction(store.db, async (tx) => {
    const previousKeyId = await recordedKeyId(tx);
    if (previousKeyId === null)
      throw conflict(
        'this database has no secret key yet (berth sets one up at the first start of serve or of a local command): nothing to rotate',
      );
    const keyring = new Keyring(source);
    const old = keyring.key(previousKeyId);
    if (!old) throw keyring.missing(previousKeyId);
    // Every value is opened before any file is written: a wrong key stops here, nothing changed.
    let values = 0;
    await eachValue(tx, old, source, () => {
      values += 1;
    });
    let keyFile: string;
    if (target !== undefined) {
      if (!createKeyFile(target, fresh)) throw conflict(`${target} already exists: berth never overwrites a key file`);
      keyFile = target;
    } else {
      keyFile = (source as { path: string }).path;
      writeKeyFile(keyFile, [old, fresh]);
    }
    await eachValue(tx, old, source, (table, id, value) =>
      tx
        .updateTable(table)
        .set({ value: seal(fresh, value, placeOf(table, id)), sealed: 1 })
        .where('id', '=', id)
        .execute(),
    );
    await tx.updateTable('settings').set({ value: fresh.id }).where('key', '=', KEY_ID_SETTING).execute();
    return { keyFile, previousKeyId, keyId: fresh.id, values };
  });
  if (target === undefined) {
    // Committed: the old key may go. Under the write lock, and only while the database still
    // names the new key (a later rotation may already have replaced it, and rewritten the file).
    await writeTransaction(store.db, async (tx) => {
      if ((await recordedKeyId(tx)) === fresh.id) writeKeyFile(result.keyFile, [fresh]);
    });
  }
  return result;
}

/**
 * Calls `fn` with every sensitive value of the database, opened with `key` (or as an older berth
 * stored it, in clear), a page at a time, so that memory holds one page whatever their number.
 */
async function eachValue(
  tx: Tx,
  key: SecretKey,
  source: SecretKeySource,
  fn: (table: SealedTable, id: string, value: string) => unknown,
): Promise<void> {
  for (const table of SEALED_TABLES) {
    let after = 0;
    for (;;) {
      const rows = await tx
        .selectFrom(table)
        .select(['seq', 'id', 'value', 'sealed'])
        .where('sensitive', '=', 1)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(literalLimit(PAGE))
        .execute();
      for (const r of rows) {
        const value =
          r.sealed !== 1 ? r.value : sealedKeyId(r.value) === key.id ? open(key, r.value, placeOf(table, r.id)) : null;
        if (value === null) throw unopened(r.id, key, source);
        await fn(table, r.id, value);
      }
      if (rows.length < PAGE) break;
      after = Number(rows[rows.length - 1].seq);
    }
  }
}

function unopened(id: string, key: SecretKey, source: SecretKeySource): BerthError {
  return secretKeyUnavailable(
    `the sensitive value of variable ${id} does not decrypt with key ${key.id} of ${describeSource(source)}, the key this database names: nothing was changed`,
  );
}
