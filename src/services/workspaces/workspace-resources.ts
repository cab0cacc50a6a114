import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { addressOf, shortModule, shortProvider } from '../../domain/state/state-resources.js';
import type { WorkspaceResource } from '../../domain/state/state-version.js';
import type { ServiceContext } from '../context.js';
import { requireState } from '../state/state-versions.js';
import { readableWorkspace, type WorkspaceRef } from './workspaces-read.js';
import { inPage } from '../../store/literal-limit.js';

/**
 * The managed resource instances of the workspace's current state, in the state's order (none
 * without a state). Reading them needs the state versions read permission, as reading the state.
 */
export async function listWorkspaceResources(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  page: PageRequest,
): Promise<Paged<WorkspaceResource>> {
  const { row: ws, facts } = await readableWorkspace(ctx, ref);
  requireState(ctx, facts);
  const svId = ws.current_state_version_id;
  if (!svId) return { items: [], total: 0, page };
  const base = ctx.db
    .selectFrom('state_version_resources')
    .where('state_version_id', '=', svId)
    .where('mode', '=', 'managed');
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const sv = await ctx.db.selectFrom('state_versions').select('created_at').where('id', '=', svId).executeTakeFirst();
  const date = (sv?.created_at ?? '').slice(0, 10);
  const rows = await base.selectAll().orderBy('seq').$call(inPage(page)).execute();
  return {
    items: rows.map((r) => ({
      id: r.id,
      address: addressOf(r),
      name: r.name,
      module: shortModule(r.module),
      provider: shortProvider(r.provider),
      providerType: r.type,
      nameIndex: r.index_key,
      stateVersionId: svId,
      date,
    })),
    total: Number(n),
    page,
  };
}
