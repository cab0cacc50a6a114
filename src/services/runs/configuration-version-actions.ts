import { PERMANENTLY_DELETED, type BackingDataAction } from '../../domain/common/backing-data.js';
import { conflict, notAuthorized } from '../../domain/common/errors.js';
import { archiveRefusal } from '../../domain/runs/configuration-lifecycle.js';
import { can } from '../../domain/permissions/policy.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { manageBackingData } from '../backing-data.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationOf } from '../write-scope.js';
import { readableCv } from './configuration-versions.js';
import { isCurrentConfiguration, runOfConfiguration } from './current-configuration.js';

/**
 * The actions on a configuration version (HCP's `POST /configuration-versions/:id/actions/…`):
 * archive, and the self-hosted edition's backing-data actions. Each discards what runs plan from
 * (the archive), so none touches the workspace's current version, nor one a run still needs.
 */

async function dropArchive(tx: Tx, id: string): Promise<void> {
  await tx.deleteFrom('configuration_files').where('configuration_version_id', '=', id).execute();
}

/**
 * Archives an uploaded version: its archive is discarded, its status `archived` (no run can use
 * it, its download is a 404). Who may queue runs may (404 otherwise, as HCP: "not found or user
 * not authorized"); a version not uploaded, the workspace's current one, or one a run still needs
 * is a 409 saying why. berth archives at once, where HCP starts the work (its 202 either way).
 */
export async function archiveConfigurationVersion(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'configuration_versions', id), async (tx) => {
    const { row, facts } = await readableCv(ctx, tx, id);
    if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('archive configuration versions here');
    const refusal = archiveRefusal(
      row,
      await isCurrentConfiguration(tx, row),
      row.status === 'uploaded' ? await runOfConfiguration(tx, id, true) : null,
    );
    if (refusal) throw conflict(refusal);
    await tx.updateTable('configuration_versions').set({ status: 'archived' }).where('id', '=', id).execute();
    await dropArchive(tx, id);
  });
}

/**
 * The self-hosted edition's backing-data actions, as state versions take them (services/
 * backing-data.ts): soft-delete (`uploaded` -> `backing_data_soft_deleted`: the archive is kept
 * but neither downloaded nor planned from), restore, delete for good (the archive is removed).
 * The workspace's current version, and one a run still needs, keep theirs.
 */
export async function manageConfigurationBackingData(
  ctx: ServiceContext,
  id: string,
  action: BackingDataAction,
): Promise<void> {
  await manageBackingData(
    ctx,
    inOrganizationOf(ctx, 'configuration_versions', id),
    {
      noun: 'configuration version',
      live: 'uploaded',
      async read(tx) {
        const { row, facts } = await readableCv(ctx, tx, id);
        const run = await runOfConfiguration(tx, id, true);
        const kept = (await isCurrentConfiguration(tx, row))
          ? "the workspace's current configuration version keeps its backing data"
          : run
            ? `run ${run} of the configuration version has not finished`
            : null;
        return { status: row.status, facts, kept };
      },
      async move(tx, to) {
        await tx.updateTable('configuration_versions').set({ status: to }).where('id', '=', id).execute();
        if (to === PERMANENTLY_DELETED) await dropArchive(tx, id);
      },
    },
    action,
  );
}
