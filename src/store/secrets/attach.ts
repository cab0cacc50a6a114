import { existsSync } from 'node:fs';
import { plural } from '../../domain/common/plural.js';
import { LIMIT_ONE } from '../literal-limit.js';
import type { Store } from '../open.js';
import { writeTransaction } from '../transaction.js';
import { newSecretKey } from './cipher.js';
import { createKeyFile, looseModeWarning } from './key-file.js';
import { Keyring, useKeyring, type SecretKeySource } from './keyring.js';
import { KEY_ID_SETTING, recordedKeyId, sealClearValues, SEALED_TABLES } from './sealed-values.js';

/** What a start found and did about the key of its database's sensitive values. */
export interface KeyAttachment {
  keyring: Keyring;
  /** The id of the key the database's values are sealed with (null: none set up, for want of a key). */
  keyId: string | null;
  /** The key file this start created (a new database, or one of a berth older than migration 041). */
  created: string | null;
  /** The key a copied database named without having sealed a value with it, replaced at this start. */
  replacedUnused?: string;
  /** Sensitive values an older berth stored in clear, sealed at this start. */
  sealedClear: number;
  /** Why this berth can neither seal nor open values (no key, or not the database's), else null. */
  problem: string | null;
  /** What the operator should hear about (a key file others may read). */
  warnings: string[];
}

/**
 * Sets up the key of the store's sensitive values at a start (serve, local mode): reads it from
 * `source`, attaches it to the store (services find it there), and on a database that names no
 * key yet creates the key file (when `create`, a file source and no such file: a new database, or
 * one of an older berth) and records its id. A database whose values were sealed before gets its
 * key checked: a missing or wrong one is a `problem` (serve refuses to start; local mode goes on,
 * and only what needs a value fails, with the same words). Once the key is right, sensitive values
 * an older berth stored in clear are sealed.
 */
export async function attachSecretKey(
  store: Store,
  source: SecretKeySource,
  options: { create?: boolean } = {},
): Promise<KeyAttachment> {
  const keyring = new Keyring(source);
  useKeyring(store.db, keyring);
  const out: KeyAttachment = { keyring, keyId: null, created: null, sealedClear: 0, problem: null, warnings: [] };
  let keyId = await recordedKeyId(store.db);
  if (keyId === null) {
    if (!keyring.first() && options.create && source.kind === 'file') {
      try {
        if (createKeyFile(source.path, newSecretKey())) out.created = source.path;
      } catch (err) {
        out.problem = (err as Error).message;
        return out;
      }
      keyring.load();
    }
    const first = keyring.first();
    if (!first) {
      out.problem = `berth has no secret key for this database's sensitive values: ${keyring.problem}`;
      return out;
    }
    keyId = await recordKeyId(store, first.id);
  }
  if (options.create && source.kind === 'file' && source.beside && !keyring.key(keyId) && !existsSync(source.path)) {
    const fresh = await replaceUnusedKey(store, source.path, keyId);
    if (fresh) {
      out.created = source.path;
      out.replacedUnused = keyId;
      keyring.load();
      keyId = fresh;
    }
  }
  out.keyId = keyId;
  const key = keyring.key(keyId);
  if (!key) {
    out.problem = keyring.missing(keyId).detail ?? null;
    return out;
  }
  if (source.kind === 'file') {
    const loose = looseModeWarning(source.path);
    if (loose) out.warnings.push(loose);
  }
  out.sealedClear = await sealClearValues(store.db, key);
  return out;
}

/**
 * A copy of a database that never sealed a value, without the key file that went beside it (a
 * database file copied on its own): nothing needs that key, so a new one is made beside the copy
 * and named in it. Only for the default file beside a SQLite database, which every process on
 * it looks for at the same path (a key file named elsewhere, or PostgreSQL's, may just be
 * missing on this host: that stays an error). In one write transaction, which a write sealing a
 * value waits for or goes before: then this one finds a sealed value and changes nothing.
 */
function replaceUnusedKey(store: Store, path: string, unused: string): Promise<string | null> {
  return writeTransaction(store.db, async (tx) => {
    if ((await recordedKeyId(tx)) !== unused) return null;
    for (const table of SEALED_TABLES)
      if (await tx.selectFrom(table).select('seq').where('sealed', '=', 1).limit(LIMIT_ONE).executeTakeFirst())
        return null;
    const fresh = newSecretKey();
    if (!createKeyFile(path, fresh)) return null;
    await tx.updateTable('settings').set({ value: fresh.id }).where('key', '=', KEY_ID_SETTING).execute();
    return fresh.id;
  });
}

/** Records `id` as the database's key unless another start recorded one first: the id that stands. */
function recordKeyId(store: Store, id: string): Promise<string> {
  return writeTransaction(store.db, async (tx) => {
    const recorded = await recordedKeyId(tx);
    if (recorded !== null) return recorded;
    await tx.insertInto('settings').values({ key: KEY_ID_SETTING, value: id }).execute();
    return id;
  });
}

/** serve's start-up lines about the key: where it is and its id (never the key), what this start did. */
export function keyAttachmentLines(a: KeyAttachment): string[] {
  const s = a.keyring.source;
  const where =
    s.kind === 'file' ? s.path : s.kind === 'environment' ? 'BERTH_SECRET_KEY' : 'memory (this process only)';
  const lines: string[] = [];
  if (a.created)
    lines.push(
      `created the secret key file ${a.created}: it encrypts sensitive variable values, and neither the database nor its backups hold it; keep a copy of it with the backups`,
    );
  if (a.replacedUnused)
    lines.push(
      `the database named key ${a.replacedUnused}, which sealed no value and whose key file was not beside it (a copied database): it now has the new key`,
    );
  lines.push(`sensitive variable values encrypted with key ${a.keyId} from ${where}`);
  if (a.sealedClear > 0)
    lines.push(`encrypted ${plural(a.sealedClear, 'sensitive variable value')} that an earlier berth stored in clear`);
  for (const w of a.warnings) lines.push(`warning: ${w}`);
  return lines;
}
