import { sql, type SqlBool } from 'kysely';
import { offsetOf, type PageRequest } from '../domain/paging.js';
import type { ServiceContext } from './context.js';

/**
 * A page of the workspaces that carry every one of `names` (flat tags of the organization), in
 * the default order (creation), with their number: what `terraform workspace list` asks of a
 * `cloud` block with tags, page after page. Both come from the tag index alone: the rows of the
 * rarest tag, in workspace order, each kept when the other tags have a row for the same
 * workspace. A page stops after its last row instead of forming and sorting the intersection.
 * (A flat tag belongs to one organization, so its workspaces are all in it.)
 */
export async function workspacesWithTags(
  ctx: ServiceContext,
  organizationId: string,
  names: string[],
  page: PageRequest,
): Promise<{ seqs: number[]; total: number }> {
  const wanted = [...new Set(names.map((n) => n.toLowerCase()))];
  const tags = await ctx.db
    .selectFrom('tags')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('name', 'in', wanted)
    .execute();
  if (tags.length < wanted.length) return { seqs: [], total: 0 };
  const sizes = await ctx.db
    .selectFrom('workspace_tags')
    .select(['tag_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where(
      'tag_id',
      'in',
      tags.map((t) => t.id),
    )
    .groupBy('tag_id')
    .execute();
  if (sizes.length < tags.length) return { seqs: [], total: 0 };
  const [rarest, ...others] = sizes.sort((a, b) => Number(a.n) - Number(b.n)).map((s) => s.tag_id);
  let rows = ctx.db.selectFrom('workspace_tags as wt').where('wt.tag_id', '=', rarest);
  for (const tagId of others) {
    rows = rows.where(
      sql<SqlBool>`exists (select 1 from workspace_tags as other where other.tag_id = ${tagId} and other.workspace_seq = wt.workspace_seq)`,
    );
  }
  const counted = await rows.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (total === 0 || offsetOf(page) >= total) return { seqs: [], total };
  const paged = await rows
    .select('wt.workspace_seq')
    .orderBy('wt.workspace_seq')
    .limit(page.size)
    .offset(offsetOf(page))
    .execute();
  return { seqs: paged.map((r) => r.workspace_seq!), total };
}
