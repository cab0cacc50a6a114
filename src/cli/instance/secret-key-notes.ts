import { keyFileHolds } from '../../store/secrets/key-file.js';

/**
 * What `berth backup`, `restore` and `db copy` tell about the key of sensitive values, which they
 * copy as they are (encrypted) and which is never in a database: where it must go with the copy.
 */

/** After a backup: keep the key with it. */
export function backupKeyNote(keyId: string | null, keyFile: string | null): string | null {
  if (keyId === null) return null;
  const where = keyFile ? ` (${keyFile})` : '';
  return `The backup holds the sensitive variable values encrypted with key ${keyId}, not the key: keep a copy of the key file${where} with it, or the restored database cannot give runs those values.`;
}

/** After a restore into `file`: the key file that must sit beside it (or be named). */
export function restoreKeyNote(keyId: string | null, file: string): string | null {
  if (keyId === null) return null;
  const beside = `${file}.key`;
  switch (keyFileHolds(beside, keyId)) {
    case 'holds':
      return `Its sensitive variable values need key ${keyId}, which ${beside} holds.`;
    case 'other':
      return `warning: its sensitive variable values need key ${keyId}, which ${beside} does not hold (it is another database's, or a key rotated since the backup): put the key file kept with the backup there, or name it with --secret-key-file / BERTH_SECRET_KEY_FILE; until then berth refuses to serve it.`;
    case 'none':
      return `Its sensitive variable values need key ${keyId}: copy the key file kept with the backup to ${beside}, or name it with --secret-key-file / BERTH_SECRET_KEY_FILE.`;
  }
}

/** After a db copy: the target needs the source's key. */
export function copyKeyNote(keyId: string | null, source: string | null, target: string): string | null {
  if (keyId === null) return null;
  const from = source ? `the key file ${source}` : 'the key of the source';
  return `Sensitive variable values were copied encrypted with key ${keyId}: give the berth of ${target} ${from} (for a SQLite file, as ${target}.key beside it; for PostgreSQL, with --secret-key-file).`;
}
