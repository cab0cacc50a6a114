import { memoQuery } from '../../store/memo-query.js';
import type { Tx } from '../../store/transaction.js';

/*
 * How many workspaces a project or an organization holds, from the counts that triggers keep in
 * the same transaction as every change of the workspaces (migration 023): one row per project,
 * instead of counting index entries each time.
 */

const inProject = memoQuery((db, p: { projectId: string }) =>
  db.selectFrom('workspace_counts').select(['n', 'organization_id']).where('project_id', '=', p.projectId),
);

const inOrganization = memoQuery((db, p: { organizationId: string }) =>
  db
    .selectFrom('workspace_counts')
    .select((eb) => eb.fn.sum<number | string | null>('n').as('n'))
    .where('organization_id', '=', p.organizationId),
);

/**
 * How many workspaces the project holds (kept by triggers, migration 023); 0 for a project of
 * another organization than `organizationId`, when given.
 */
export async function projectWorkspaceCount(db: Tx, projectId: string, organizationId?: string): Promise<number> {
  const row = await inProject.first(db, { projectId });
  if (!row || (organizationId !== undefined && row.organization_id !== organizationId)) return 0;
  return Number(row.n);
}

/** How many workspaces the organization holds (kept by triggers, migration 023). */
export async function organizationWorkspaceCount(db: Tx, organizationId: string): Promise<number> {
  return Number((await inOrganization.first(db, { organizationId }))?.n ?? 0);
}
