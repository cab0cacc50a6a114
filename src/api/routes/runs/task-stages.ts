import { Hono } from 'hono';
import { getTaskStage, listTaskStages } from '../../../services/runs/task-stages.js';
import { sendCollection } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, rejectUnknownFilters } from '../../query.js';

/**
 * HCP's task stages (go-tfe's TaskStages.List and Read). berth has none: a readable run lists an
 * empty page, and every task stage is a 404.
 */
export function taskStageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/runs/:id/task-stages', async (c) => {
    // go-tfe's TaskStageListOptions sends only page[...].
    rejectUnknownFilters(c, []);
    includesOf(c, ['task_results', 'policy_evaluations']);
    // An empty page: nothing to serialise.
    return sendCollection(c, await listTaskStages(c.get('ctx'), c.req.param('id'), pageOf(c)), (stage) => stage);
  });
  r.get('/task-stages/:id', (c) => {
    // go-tfe's TaskStageReadOptions: include=task_results,policy_evaluations.
    includesOf(c, ['task_results', 'policy_evaluations']);
    return getTaskStage(c.get('ctx'), c.req.param('id'));
  });
  return r;
}
