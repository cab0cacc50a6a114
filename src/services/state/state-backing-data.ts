import { PERMANENTLY_DELETED, type BackingDataAction } from '../../domain/common/backing-data.js';
import type { StateVersionStatus } from '../../domain/state/state-version.js';
import { manageBackingData } from '../backing-data.js';
import type { ServiceContext } from '../context.js';
import { readableVersion } from './state-versions.js';
import { inOrganizationOf } from '../write-scope.js';

/**
 * Self-hosted edition only (services/backing-data.ts): soft-deletes a state version's stored state
 * (its download URLs then answer 404), restores it, or deletes it for good (the bytes are removed;
 * no way back). The workspace's current version, and one not yet released by an unlock, keep
 * theirs.
 */
export async function manageStateBackingData(
  ctx: ServiceContext,
  id: string,
  action: BackingDataAction,
): Promise<void> {
  await manageBackingData(
    ctx,
    inOrganizationOf(ctx, 'state_versions', id),
    {
      noun: 'state version',
      live: 'finalized',
      async read(tx) {
        const { row, ws, facts } = await readableVersion(ctx, id, 'workspace:read-state-versions', tx);
        const kept =
          row.id === ws.current_state_version_id
            ? "the workspace's current state version keeps its backing data"
            : row.intermediate === 1
              ? 'the state version is not yet released by an unlock'
              : null;
        return { status: row.status, facts, kept };
      },
      async move(tx, to) {
        await tx
          .updateTable('state_versions')
          .set({ status: to as StateVersionStatus })
          .where('id', '=', id)
          .execute();
        if (to === PERMANENTLY_DELETED) await tx.deleteFrom('state_files').where('state_version_id', '=', id).execute();
      },
    },
    action,
  );
}
