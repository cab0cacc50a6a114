import type { Selectable } from 'kysely';
import { FINAL_STATUSES } from '../../domain/runs/run.js';
import { currentOnApply, type ConfigurationFacts } from '../../domain/runs/configuration-lifecycle.js';
import type { ConfigurationVersionsTable } from '../../store/schema.js';
import { LIMIT_ONE } from '../../store/literal-limit.js';
import type { Tx } from '../../store/transaction.js';

/**
 * The workspace's current configuration version (`workspaces.current_configuration_version_id`,
 * migration 042) and the runs that still need a version: what the upload, the end of an apply,
 * archiving and the backing-data actions read and write, each inside its own transaction.
 */

type CvRow = Selectable<ConfigurationVersionsTable>;

export const factsOf = (cv: CvRow): ConfigurationFacts => ({
  status: cv.status,
  speculative: cv.speculative === 1,
  provisional: cv.provisional === 1,
});

/**
 * Makes `cv` its workspace's current configuration version, unless a newer one (created later:
 * a greater `seq`) already is: a provisional version applied late does not replace the version
 * uploaded after it, as HCP documents ("unless a newer one exists").
 */
export async function makeCurrentConfiguration(tx: Tx, cv: Pick<CvRow, 'id' | 'seq' | 'workspace_id'>) {
  const ws = await tx
    .selectFrom('workspaces')
    .leftJoin('configuration_versions as cur', 'cur.id', 'workspaces.current_configuration_version_id')
    .select('cur.seq as seq')
    .where('workspaces.id', '=', cv.workspace_id)
    .executeTakeFirst();
  if (!ws || (ws.seq !== null && ws.seq >= cv.seq)) return;
  await tx
    .updateTable('workspaces')
    .set({ current_configuration_version_id: cv.id })
    .where('id', '=', cv.workspace_id)
    .execute();
}

/** A run applied: its provisional configuration version becomes current (unless a newer one is). */
export async function currentAfterApply(tx: Tx, run: { configuration_version_id: string | null }): Promise<void> {
  if (!run.configuration_version_id) return;
  const cv = await tx
    .selectFrom('configuration_versions')
    .selectAll()
    .where('id', '=', run.configuration_version_id)
    .executeTakeFirst();
  if (cv && currentOnApply(factsOf(cv))) await makeCurrentConfiguration(tx, cv);
}

/** Whether `cv` is its workspace's current configuration version. */
export async function isCurrentConfiguration(tx: Tx, cv: Pick<CvRow, 'id' | 'workspace_id'>): Promise<boolean> {
  const ws = await tx
    .selectFrom('workspaces')
    .select('current_configuration_version_id')
    .where('id', '=', cv.workspace_id)
    .executeTakeFirst();
  return ws?.current_configuration_version_id === cv.id;
}

/** A run of the version (any, or only one not yet finished: it still needs the archive), or null. */
export async function runOfConfiguration(tx: Tx, cvId: string, unfinished = false): Promise<string | null> {
  let q = tx.selectFrom('runs').select('id').where('configuration_version_id', '=', cvId);
  // A saved plan (planned_and_saved) is not final: it is applied later, from this archive.
  if (unfinished) q = q.where('status', 'not in', FINAL_STATUSES);
  const row = await q.orderBy('seq').limit(LIMIT_ONE).executeTakeFirst();
  return row?.id ?? null;
}
