import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { conflict } from '../../domain/common/errors.js';
import type { Store } from '../open.js';
import { writeTransaction } from '../transaction.js';
import { newSecretKey, seal } from './cipher.js';
import { createKeyFile } from './key-file.js';
import { describeSource, Keyring, type SecretKeySource } from './keyring.js';
import { KEY_ID_SETTING, placeOf, recordedKeyId, type SealedTable } from './sealed-values.js';

/** A sensitive variable whose value only the lost key opened. */
export interface LostVariable {
  table: SealedTable;
  id: string;
  key: string;
  category: string;
  /** `workspace ORG/NAME` or `variable set ORG/NAME`. */
  owner: string;
}

export interface LostKeyResult {
  keyFile: string;
  lostKeyId: string;
  keyId: string;
  /** Sensitive values an older berth stored in clear, sealed with the new key. */
  values: number;
  /** The variables deleted with their unreadable values, to be set again. */
  deleted: LostVariable[];
}

/**
 * The way out of a lost key (`berth db rotate-key --replace-lost-key`): the values it sealed are
 * gone with it, so their variables are deleted (a run then misses them, loudly, rather than
 * getting an empty value) and listed, to be set again; a new key, in a new file (never over an
 * existing one), becomes the database's. One write transaction; the new file is created inside
 * it, before the commit. Refused while the database's key is at hand (rotate it instead).
 */
export async function replaceLostKey(
  store: Store,
  source: SecretKeySource,
  options: { newKeyFile?: string } = {},
): Promise<LostKeyResult> {
  const target = options.newKeyFile ? resolve(options.newKeyFile) : source.kind === 'file' ? source.path : undefined;
  if (target === undefined)
    throw conflict(`the key comes from ${describeSource(source)}: give --new-key-file PATH for the new key`);
  if (existsSync(target))
    throw conflict(
      `${target} exists: berth never overwrites a key file (it may be another database's); move it away, or name a new file with --new-key-file`,
    );
  const fresh = newSecretKey();
  return writeTransaction(store.db, async (tx) => {
    const lostKeyId = await recordedKeyId(tx);
    if (lostKeyId === null) throw conflict('this database has no secret key yet: there is no key to replace');
    if (new Keyring(source).key(lostKeyId))
      throw conflict(
        `${describeSource(source)} holds key ${lostKeyId}, the database's: it is not lost; rotate it without --replace-lost-key`,
      );
    const workspaceVars = await tx
      .selectFrom('workspace_variables as v')
      .innerJoin('workspaces as w', 'w.id', 'v.workspace_id')
      .innerJoin('organizations as o', 'o.id', 'w.organization_id')
      .select(['v.id', 'v.key', 'v.category', 'w.name', 'o.name as org'])
      .where('v.sealed', '=', 1)
      .orderBy('v.seq')
      .execute();
    const setVars = await tx
      .selectFrom('varset_variables as v')
      .innerJoin('varsets as s', 's.id', 'v.varset_id')
      .innerJoin('organizations as o', 'o.id', 's.organization_id')
      .select(['v.id', 'v.key', 'v.category', 's.name', 'o.name as org'])
      .where('v.sealed', '=', 1)
      .orderBy('v.seq')
      .execute();
    const deleted: LostVariable[] = [
      ...workspaceVars.map((r) => ({ table: 'workspace_variables' as const, ...lost(r, 'workspace') })),
      ...setVars.map((r) => ({ table: 'varset_variables' as const, ...lost(r, 'variable set') })),
    ];
    if (!createKeyFile(target, fresh)) throw conflict(`${target} exists: berth never overwrites a key file`);
    let values = 0;
    for (const table of ['workspace_variables', 'varset_variables'] as const) {
      await tx.deleteFrom(table).where('sealed', '=', 1).execute();
      const clear = await tx.selectFrom(table).select(['id', 'value']).where('sensitive', '=', 1).execute();
      for (const r of clear)
        await tx
          .updateTable(table)
          .set({ value: seal(fresh, r.value, placeOf(table, r.id)), sealed: 1 })
          .where('id', '=', r.id)
          .execute();
      values += clear.length;
    }
    await tx.updateTable('settings').set({ value: fresh.id }).where('key', '=', KEY_ID_SETTING).execute();
    return { keyFile: target, lostKeyId, keyId: fresh.id, values, deleted };
  });
}

function lost(
  r: { id: string; key: string; category: string; name: string; org: string },
  kind: string,
): Omit<LostVariable, 'table'> {
  return { id: r.id, key: r.key, category: r.category, owner: `${kind} ${r.org}/${r.name}` };
}
