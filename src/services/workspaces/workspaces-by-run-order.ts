import { offsetOf, type PageRequest } from '../../domain/common/paging.js';
import type { ServiceContext } from '../context.js';
import type { WorkspaceFilter } from './workspaces-filters.js';
import { literalLimit } from '../../store/literal-limit.js';

/**
 * A page of the workspaces passing `filters` in `sort=current-run.created-at` order: those with
 * a current run by its creation time, then those without one (last in either direction), ties
 * and the run-less in creation order. Written as one `ORDER BY (x IS NULL), x, seq`, the
 * database sorts every match to find a page (100,000 workspaces: 80 ms); read as two ranges,
 * each comes in order from an index and stops after the page: the workspaces with a run from the
 * index on (organization, current_run_created_at, migration 019), then, if the page reaches past
 * them, the run-less ones from the index on (organization, seq).
 */
export async function pageByCurrentRun(
  ctx: ServiceContext,
  filters: WorkspaceFilter[],
  descending: boolean,
  page: PageRequest,
): Promise<number[]> {
  const dir = descending ? 'desc' : 'asc';
  const matches = () => {
    let q = ctx.db.selectFrom('workspaces');
    for (const f of filters) q = q.where(f);
    return q;
  };
  const offset = offsetOf(page);
  const withRun = (
    await matches()
      .select('workspaces.seq')
      .where('workspaces.current_run_created_at', 'is not', null)
      .orderBy('workspaces.current_run_created_at', dir)
      .orderBy('workspaces.seq', dir)
      .limit(literalLimit(page.size))
      .offset(offset)
      .execute()
  ).map((r) => r.seq);
  if (withRun.length === page.size) return withRun;
  // The page reaches past the workspaces with a run: how many there are tells where the
  // run-less part of the page starts (known without counting when this page held some).
  const runs =
    withRun.length > 0
      ? offset + withRun.length
      : Number(
          (
            await matches()
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('workspaces.current_run_created_at', 'is not', null)
              .executeTakeFirstOrThrow()
          ).n,
        );
  const withoutRun = await matches()
    .select('workspaces.seq')
    .where('workspaces.current_run_created_at', 'is', null)
    .orderBy('workspaces.seq', dir)
    .limit(literalLimit(page.size - withRun.length))
    .offset(Math.max(0, offset - runs))
    .execute();
  return [...withRun, ...withoutRun.map((r) => r.seq)];
}
