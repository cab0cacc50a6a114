import { BerthError, invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { TOO_MANY_FLAT_TAGS_DETAIL } from '../../domain/workspaces/flat-tags.js';
import { MAX_FLAT_TAGS_PER_WORKSPACE } from '../../domain/common/limits.js';
import { can, scoped } from '../../domain/permissions/policy.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from './organizations.js';
import { workspaceSeq } from '../workspaces/workspace-seq.js';
import { inOrganizationNamed, inOrganizationOf } from '../write-scope.js';

const notInOrganization = (what: string, ids: string[], all: string[], pointer: string) =>
  new BerthError(
    ids.map((id) => ({
      status: 422,
      title: 'invalid attribute',
      detail: `${what} ${id} not found in this organization`,
      pointer: `${pointer}/${all.indexOf(id)}/id`,
    })),
  );

/**
 * `DELETE /organizations/:org/tags`: removes flat tags from the organization and from every
 * workspace that carries them. Only who administers every workspace of the organization (owners,
 * "manage workspaces", the organization token) may; each id must name a tag of the organization.
 */
export async function deleteOrganizationTags(ctx: ServiceContext, organization: string, ids: string[]): Promise<void> {
  await writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    if (!can(ctx.actor, 'workspace:update', facts)) throw notAuthorized('delete the tags of this organization');
    const found = new Set(
      (
        await tx.selectFrom('tags').select('id').where('organization_id', '=', org.id).where('id', 'in', ids).execute()
      ).map((t) => t.id),
    );
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw notInOrganization('Tag', missing, ids, '/data');
    // workspace_tags rows go with their tags (foreign key cascade).
    await tx.deleteFrom('tags').where('organization_id', '=', org.id).where('id', 'in', ids).execute();
  });
}

async function tagRow(tx: Tx, id: string) {
  return tx.selectFrom('tags').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst();
}

/**
 * `POST /tags/:id/relationships/workspaces`: puts the tag on each workspace (those that carry it
 * already are left alone). 404 for a tag the caller cannot see; each workspace must be of the
 * tag's organization (422) and one the caller may administer (404 otherwise).
 */
export async function addTagToWorkspaces(ctx: ServiceContext, tagId: string, workspaceIds: string[]): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'tags', tagId), async (tx) => {
    const tag = await tagRow(tx, tagId);
    if (!tag) throw notFound(`tag ${tagId} not found`);
    const facts = await orgFacts(tx, ctx.actor, tag.organization_id);
    if (!can(ctx.actor, 'organization:read', facts)) throw notFound(`tag ${tagId} not found`);
    const rows = await tx
      .selectFrom('workspaces')
      .select(['id', 'name', 'project_id'])
      .where('organization_id', '=', tag.organization_id)
      .where('id', 'in', workspaceIds)
      .execute();
    const byId = new Map(rows.map((w) => [w.id, w]));
    const unknown = workspaceIds.filter(
      (id) =>
        !byId.has(id) ||
        !can(ctx.actor, 'workspace:read', scoped(facts, { projectId: byId.get(id)!.project_id, workspaceId: id })),
    );
    if (unknown.length > 0) throw notInOrganization('Workspace', unknown, workspaceIds, '/data');
    const refused = rows.filter(
      (w) => !can(ctx.actor, 'workspace:update', scoped(facts, { projectId: w.project_id, workspaceId: w.id })),
    );
    if (refused.length > 0)
      throw notAuthorized(`manage the tags of workspace(s) ${refused.map((w) => `${w.name} (${w.id})`).join(', ')}`);
    const carrying = new Set(
      (
        await tx
          .selectFrom('workspace_tags')
          .select('workspace_id')
          .where('tag_id', '=', tag.id)
          .where('workspace_id', 'in', workspaceIds)
          .execute()
      ).map((r) => r.workspace_id),
    );
    const now = ctx.clock.now().toISOString();
    for (const id of workspaceIds) {
      if (carrying.has(id)) continue;
      await tx
        .insertInto('workspace_tags')
        .values({ workspace_id: id, workspace_seq: workspaceSeq(tx, id), tag_id: tag.id })
        .execute();
      await tx.updateTable('workspaces').set({ updated_at: now }).where('id', '=', id).execute();
    }
    // A workspace carries a limited number of flat tags: past it, nothing of the request stays.
    const added = workspaceIds.filter((id) => !carrying.has(id));
    const full =
      added.length === 0
        ? []
        : await tx
            .selectFrom('workspace_tags')
            .select('workspace_id')
            .where('workspace_id', 'in', added)
            .groupBy('workspace_id')
            .having((eb) => eb.fn.countAll(), '>', MAX_FLAT_TAGS_PER_WORKSPACE)
            .execute();
    if (full.length > 0) {
      const i = workspaceIds.indexOf(full[0].workspace_id);
      throw invalid(`/data/${i}/id`, TOO_MANY_FLAT_TAGS_DETAIL);
    }
  });
}
