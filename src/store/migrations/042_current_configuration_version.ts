import type { Kysely } from 'kysely';

/**
 * The workspace's current configuration version (issue 43): HCP's "last configuration received,
 * excluding plan-only ones", kept on the workspace as its current state version is, so that no
 * read of a workspace (a page of a hundred) looks through its configuration versions. Set by an
 * upload (not of a speculative or provisional version) and by the apply of a provisional
 * version's run, each only when newer (by `seq`) than the one there (services/runs/
 * current-configuration.ts). Filled here from what earlier berths stored, by the same rule.
 * The runs of a version are found by an index of their own: a second upload, archiving and the
 * backing-data actions each ask whether a run used (or still needs) the version.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('runs_configuration_version')
    .on('runs')
    .columns(['configuration_version_id', 'seq'])
    .execute();
  await db.schema.alterTable('workspaces').addColumn('current_configuration_version_id', 'text').execute();
  await db
    .updateTable('workspaces')
    .set((eb) => ({
      current_configuration_version_id: eb
        .selectFrom('configuration_versions as cv')
        .select('cv.id')
        .whereRef('cv.workspace_id', '=', 'workspaces.id')
        .where('cv.status', '=', 'uploaded')
        .where('cv.speculative', '=', 0)
        .where((w) =>
          w.or([
            w('cv.provisional', '=', 0),
            w.exists(
              w
                .selectFrom('runs')
                .select('runs.id')
                .whereRef('runs.configuration_version_id', '=', 'cv.id')
                .where('runs.status', '=', 'applied'),
            ),
          ]),
        )
        .orderBy('cv.seq', 'desc')
        .limit(1),
    }))
    .execute();
}
