import { notFound } from '../../domain/common/errors.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import type { ServiceContext } from '../context.js';
import { readableRun } from './run-documents.js';

/**
 * Task stages (HCP's run tasks and policy evaluations, `GET /runs/:id/task-stages`): berth runs
 * no run tasks, so a run has none. The tfe provider lists them after every run it starts, to know
 * whether a post-plan stage will hold the run.
 */

/** No task stage the caller could see: an empty page, or 404 unless the run is readable. */
export async function listTaskStages(ctx: ServiceContext, runId: string, page: PageRequest): Promise<Paged<never>> {
  await readableRun(ctx, runId);
  return { items: [], total: 0, page };
}

/** A task stage by id: there is none. */
export function getTaskStage(_ctx: ServiceContext, id: string): never {
  throw notFound(`task stage ${id} not found`);
}
