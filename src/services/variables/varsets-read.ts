import { sql, type ExpressionBuilder, type ExpressionWrapper, type Selectable, type SqlBool } from 'kysely';
import type { Actor } from '../../domain/permissions/actor.js';
import { notAuthorized, notFound } from '../../domain/common/errors.js';
import { canManageVarset, projectVarsetReadScope, variableReadScope } from '../../domain/variables/varset-policy.js';
import type { Varset } from '../../domain/variables/varset.js';
import type { DB, VarsetsTable } from '../../store/schema.js';
import type { Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import type { OrgFacts } from '../../domain/permissions/policy.js';

export type VarsetRow = Selectable<VarsetsTable> & { organization_name: string };

export function selectVarsets(db: Tx) {
  return db
    .selectFrom('varsets')
    .innerJoin('organizations', 'organizations.id', 'varsets.organization_id')
    .selectAll('varsets')
    .select('organizations.name as organization_name');
}

/** The sets' variables, workspaces and projects, by set id (ids in the order they were added). */
export async function toVarsets(db: Tx, rows: VarsetRow[]): Promise<Varset[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const vars = await db
    .selectFrom('varset_variables')
    .select(['id', 'varset_id'])
    .where('varset_id', 'in', ids)
    .orderBy('seq')
    .execute();
  const wss = await db
    .selectFrom('varset_workspaces')
    .select(['varset_id', 'workspace_id'])
    .where('varset_id', 'in', ids)
    .orderBy('seq')
    .orderBy('workspace_id')
    .execute();
  const prjs = await db
    .selectFrom('varset_projects')
    .select(['varset_id', 'project_id'])
    .where('varset_id', 'in', ids)
    .orderBy('seq')
    .orderBy('project_id')
    .execute();
  const group = <T extends { varset_id: string }>(items: T[], pick: (t: T) => string) => {
    const m = new Map<string, string[]>();
    for (const t of items) m.set(t.varset_id, [...(m.get(t.varset_id) ?? []), pick(t)]);
    return m;
  };
  const v = group(vars, (x) => x.id);
  const w = group(wss, (x) => x.workspace_id);
  const p = group(prjs, (x) => x.project_id);
  return rows.map((r) => {
    const variableIds = v.get(r.id) ?? [];
    const workspaceIds = w.get(r.id) ?? [];
    const projectIds = p.get(r.id) ?? [];
    return {
      id: r.id,
      organizationName: r.organization_name,
      parentProjectId: r.parent_project_id,
      name: r.name,
      description: r.description,
      global: r.global === 1,
      priority: r.priority === 1,
      updatedAt: r.updated_at,
      varCount: variableIds.length,
      workspaceCount: workspaceIds.length,
      projectCount: projectIds.length,
      variableIds,
      workspaceIds,
      projectIds,
    };
  });
}

/**
 * The sets a caller who is no manager may read: those that apply to a workspace where it reads
 * variables (global sets, sets applied to such a workspace or to its project), and those owned by
 * a project where it reads variable sets (`ownedBy`, varset-policy.ts's projectVarsetReadScope).
 */
export function visibleTo(scope: { projectIds: string[]; workspaceIds: string[] }, ownedBy: string[] = []) {
  return (eb: ExpressionBuilder<DB, 'varsets'>) => {
    const { projectIds, workspaceIds } = scope;
    if (projectIds.length === 0 && workspaceIds.length === 0 && ownedBy.length === 0) return sql<boolean>`1 = 0`;
    const ors: ExpressionWrapper<DB, 'varsets', SqlBool>[] = [];
    if (ownedBy.length > 0) ors.push(eb('varsets.parent_project_id', 'in', ownedBy));
    if (projectIds.length > 0 || workspaceIds.length > 0) ors.push(eb('varsets.global', '=', 1));
    if (projectIds.length > 0) {
      ors.push(
        eb(
          'varsets.id',
          'in',
          eb.selectFrom('varset_projects').select('varset_id').where('project_id', 'in', projectIds),
        ),
        eb(
          'varsets.id',
          'in',
          eb
            .selectFrom('varset_workspaces')
            .innerJoin('workspaces', 'workspaces.id', 'varset_workspaces.workspace_id')
            .select('varset_workspaces.varset_id')
            .where('workspaces.project_id', 'in', projectIds),
        ),
      );
    }
    if (workspaceIds.length > 0) {
      ors.push(
        eb(
          'varsets.id',
          'in',
          eb.selectFrom('varset_workspaces').select('varset_id').where('workspace_id', 'in', workspaceIds),
        ),
        eb(
          'varsets.id',
          'in',
          eb
            .selectFrom('varset_projects')
            .innerJoin('workspaces', 'workspaces.project_id', 'varset_projects.project_id')
            .select('varset_projects.varset_id')
            .where('workspaces.id', 'in', workspaceIds),
        ),
      );
    }
    return eb.or(ors);
  };
}

export interface ReadableVarset {
  row: VarsetRow;
  facts: OrgFacts;
  manager: boolean;
}

/** The set the actor may read, else 404 (unknown and unreadable look the same). */
export async function readableVarset(db: Tx, actor: Actor, id: string): Promise<ReadableVarset> {
  const missing = () => notFound(`variable set ${id} not found`);
  const row = await selectVarsets(db).where('varsets.id', '=', id).executeTakeFirst();
  if (!row) throw missing();
  const facts = await orgFacts(db, actor, row.organization_id);
  if (canManageVarset(actor, facts, row.parent_project_id)) return { row, facts, manager: true };
  const scope = variableReadScope(actor, facts);
  if (scope !== 'all') {
    const seen = await db
      .selectFrom('varsets')
      .select('id')
      .where('id', '=', id)
      .where(visibleTo(scope, projectVarsetReadScope(actor, facts)))
      .executeTakeFirst();
    if (!seen) throw missing();
  }
  return { row, facts, manager: false };
}

/** A set the caller may manage: 404 when unknown or unreadable, 404 naming the action when read-only. */
export async function manageableVarset(ctx: ServiceContext, tx: Tx, id: string): Promise<VarsetRow> {
  const { row, manager } = await readableVarset(tx, ctx.actor, id);
  if (!manager) throw notAuthorized('manage variable sets');
  return row;
}
