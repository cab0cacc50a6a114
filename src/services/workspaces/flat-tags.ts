import { BerthError, invalid, notAuthorized } from '../../domain/common/errors.js';
import { TOO_MANY_FLAT_TAGS_DETAIL, type FlatTag, type FlatTagRef } from '../../domain/workspaces/flat-tags.js';
import { MAX_FLAT_TAGS_PER_WORKSPACE } from '../../domain/common/limits.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import { containsInsensitive } from '../../store/like.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { readableWorkspace, type WorkspaceRef } from './workspaces-read.js';
import { workspaceSeq } from './workspace-seq.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

/** Tags with how many workspaces carry them. */
function selectTags(db: Tx) {
  return db
    .selectFrom('tags')
    .innerJoin('organizations', 'organizations.id', 'tags.organization_id')
    .select(['tags.id', 'tags.name', 'tags.created_at', 'tags.seq', 'organizations.name as org_name'])
    .select((eb) =>
      eb
        .selectFrom('workspace_tags')
        .select((e) => e.fn.countAll<number>().as('c'))
        .whereRef('workspace_tags.tag_id', '=', 'tags.id')
        .as('instance_count'),
    );
}

type TagRow = { id: string; name: string; created_at: string; org_name: string; instance_count: number | null };
const toTag = (r: TagRow): FlatTag => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
  organizationName: r.org_name,
  instanceCount: Number(r.instance_count ?? 0),
});

/**
 * The organization's flat tags that at least one workspace carries (a tag on no workspace
 * leaves the list), in creation order; `q` is a case-insensitive substring of the name.
 */
export async function listOrganizationTags(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
  q?: string,
  excludeWorkspaceId?: string,
): Promise<Paged<FlatTag>> {
  const { row: org, facts } = await readableOrganization(ctx, organization);
  if (!can(ctx.actor, 'workspace:read', facts)) return { items: [], total: 0, page };
  let query = selectTags(ctx.db)
    .where('tags.organization_id', '=', org.id)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('workspace_tags').select('workspace_tags.seq').whereRef('workspace_tags.tag_id', '=', 'tags.id'),
      ),
    );
  if (q) query = query.where(containsInsensitive('tags.name', q));
  // `filter[exclude][taggable][id]`: leave out the tags that workspace carries.
  if (excludeWorkspaceId) {
    query = query.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('workspace_tags as ex')
            .select('ex.seq')
            .whereRef('ex.tag_id', '=', 'tags.id')
            .where('ex.workspace_id', '=', excludeWorkspaceId),
        ),
      ),
    );
  }
  const { n } = await ctx.db
    .selectFrom(query.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('tags.seq').$call(inPage(page)).execute();
  return { items: rows.map(toTag), total: Number(n), page };
}

/** The workspace's flat tags in the order they were added; `name` filters by substring. */
export async function listWorkspaceTags(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  page: PageRequest,
  name?: string,
): Promise<Paged<FlatTag>> {
  const { row } = await readableWorkspace(ctx, ref);
  let query = selectTags(ctx.db)
    .innerJoin('workspace_tags as wt', 'wt.tag_id', 'tags.id')
    .where('wt.workspace_id', '=', row.id);
  if (name) query = query.where(containsInsensitive('tags.name', name));
  const { n } = await ctx.db
    .selectFrom(query.as('m'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('wt.seq').$call(inPage(page)).execute();
  return { items: rows.map(toTag), total: Number(n), page };
}

function requireManageTags(ctx: ServiceContext, facts: OrgFacts, workspace: { id: string; name: string }): void {
  if (!can(ctx.actor, 'workspace:update', facts))
    throw notAuthorized(`manage the tags of workspace ${workspace.name} (${workspace.id})`);
}

/** Checks that every id names a tag of the organization (422 listing each that does not). */
async function tagsById(
  tx: Tx,
  organizationId: string,
  refs: FlatTagRef[],
  pointer = '/data',
): Promise<Map<string, string>> {
  const ids = refs.flatMap((r) => ('id' in r ? [r.id] : []));
  const found =
    ids.length === 0
      ? []
      : await tx
          .selectFrom('tags')
          .select(['id', 'name'])
          .where('organization_id', '=', organizationId)
          .where('id', 'in', ids)
          .execute();
  const byId = new Map(found.map((t) => [t.id, t.name]));
  const problems = refs.flatMap((r, i) =>
    'id' in r && !byId.has(r.id)
      ? [
          {
            status: 422,
            title: 'invalid attribute',
            detail: `Tag ${r.id} not found in this organization`,
            pointer: `${pointer}/${i}/id`,
          },
        ]
      : [],
  );
  if (problems.length > 0) throw new BerthError(problems);
  return byId;
}

/**
 * Adds tags to the workspace: by id (which must exist in the organization) or by name
 * (created in the organization when new). Tags it already carries are ignored.
 */
export async function addWorkspaceTags(ctx: ServiceContext, ref: WorkspaceRef, refs: FlatTagRef[]): Promise<void> {
  await writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    requireManageTags(ctx, facts, row);
    const now = ctx.clock.now().toISOString();
    await addTagRefs(tx, row.organization_id, row.id, refs, now);
    await tx.updateTable('workspaces').set({ updated_at: now }).where('id', '=', row.id).execute();
  });
}

/**
 * Adds flat tags to a workspace inside the caller's transaction (also for the inline
 * `relationships.tags` of workspace create and update): ids must be tags of the organization
 * (422 at `pointer/<i>/id`), unknown names create organization tags, present ones are ignored.
 */
export async function addTagRefs(
  tx: Tx,
  organizationId: string,
  workspaceId: string,
  refs: FlatTagRef[],
  now: string,
  pointer = '/data',
): Promise<void> {
  await tagsById(tx, organizationId, refs, pointer);
  const have = new Set(
    (await tx.selectFrom('workspace_tags').select('tag_id').where('workspace_id', '=', workspaceId).execute()).map(
      (r) => r.tag_id,
    ),
  );
  for (const r of refs) {
    let tagId: string;
    if ('id' in r) tagId = r.id;
    else {
      const existing = await tx
        .selectFrom('tags')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('name', '=', r.name)
        .executeTakeFirst();
      if (existing) tagId = existing.id;
      else {
        tagId = newId('tag');
        await tx
          .insertInto('tags')
          .values({ id: tagId, organization_id: organizationId, name: r.name, created_at: now })
          .execute();
      }
    }
    if (have.has(tagId)) continue;
    have.add(tagId);
    // A refused request changes nothing: the transaction rolls back what it inserted so far.
    if (have.size > MAX_FLAT_TAGS_PER_WORKSPACE) throw invalid(pointer, TOO_MANY_FLAT_TAGS_DETAIL);
    await tx
      .insertInto('workspace_tags')
      .values({ workspace_id: workspaceId, workspace_seq: workspaceSeq(tx, workspaceId), tag_id: tagId })
      .execute();
  }
}

/**
 * Removes tags from the workspace: an id must name a tag of the organization (422 otherwise);
 * a name that matches no tag is ignored, as is a tag the workspace does not carry.
 */
export async function removeWorkspaceTags(ctx: ServiceContext, ref: WorkspaceRef, refs: FlatTagRef[]): Promise<void> {
  await writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    requireManageTags(ctx, facts, row);
    await tagsById(tx, row.organization_id, refs);
    const names = refs.flatMap((r) => ('name' in r ? [r.name] : []));
    const byName =
      names.length === 0
        ? []
        : await tx
            .selectFrom('tags')
            .select('id')
            .where('organization_id', '=', row.organization_id)
            .where('name', 'in', names)
            .execute();
    const ids = [...refs.flatMap((r) => ('id' in r ? [r.id] : [])), ...byName.map((t) => t.id)];
    if (ids.length > 0)
      await tx.deleteFrom('workspace_tags').where('workspace_id', '=', row.id).where('tag_id', 'in', ids).execute();
    await tx
      .updateTable('workspaces')
      .set({ updated_at: ctx.clock.now().toISOString() })
      .where('id', '=', row.id)
      .execute();
  });
}
