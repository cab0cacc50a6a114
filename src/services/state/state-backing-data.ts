import { BerthError, notAuthorized, notFound } from '../../domain/common/errors.js';
import { can } from '../../domain/permissions/policy.js';
import type { StateVersionStatus } from '../../domain/state/state-version.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableVersion } from './state-versions.js';
import { inOrganizationOf } from '../write-scope.js';

export type BackingDataAction = 'soft_delete_backing_data' | 'restore_backing_data' | 'permanently_delete_backing_data';

/** Each action: the status it starts from and the one it leads to. */
const TRANSITIONS: Record<BackingDataAction, { from: StateVersionStatus; to: StateVersionStatus }> = {
  soft_delete_backing_data: { from: 'finalized', to: 'backing_data_soft_deleted' },
  restore_backing_data: { from: 'backing_data_soft_deleted', to: 'finalized' },
  permanently_delete_backing_data: { from: 'backing_data_soft_deleted', to: 'backing_data_permanently_deleted' },
};

const refused = (detail: string) => new BerthError([{ status: 422, title: 'unprocessable entity', detail }]);

/**
 * Self-hosted edition only (404 in the hosted edition, as a feature it does not have): soft-deletes
 * a version's stored state (its download URLs then answer 404), restores it, or deletes it for
 * good (the bytes are removed; no way back). Workspace admins may. Any other move, and any
 * move of the workspace's current version or of one not yet released by an unlock, is a 422
 * `transition not allowed`.
 */
export async function manageBackingData(ctx: ServiceContext, id: string, action: BackingDataAction): Promise<void> {
  if (ctx.settings.edition !== 'self-hosted')
    throw notFound('state version backing data is managed only in the self-hosted edition');
  await writeTransaction(inOrganizationOf(ctx, 'state_versions', id), async (tx) => {
    const { row, ws, facts } = await readableVersion(ctx, id, 'workspace:read-state-versions', tx);
    if (!can(ctx.actor, 'workspace:update', facts))
      throw notAuthorized("manage this state version's backing data (workspace admins only)");
    const { from, to } = TRANSITIONS[action];
    if (row.id === ws.current_state_version_id)
      throw refused("transition not allowed: the workspace's current state version keeps its backing data");
    if (row.intermediate === 1)
      throw refused('transition not allowed: the state version is not yet released by an unlock');
    if (row.status !== from) throw refused(`transition not allowed from ${row.status} to ${to}`);
    await tx.updateTable('state_versions').set({ status: to }).where('id', '=', row.id).execute();
    if (to === 'backing_data_permanently_deleted')
      await tx.deleteFrom('state_files').where('state_version_id', '=', row.id).execute();
  });
}
