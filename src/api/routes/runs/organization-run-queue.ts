import { Hono } from 'hono';
import { API_PREFIX, sendCollection, sendResource, toOne } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, rejectUnknownFilters } from '../../query.js';
import { organizationRunCapacity, organizationRunQueue } from '../../../services/runs/organization-run-queue.js';

/**
 * The organization's run queue and capacity, as HCP answers them: the Terraform CLI reads both
 * while a remote run waits to start (berth serve --execute-runs).
 */
export function organizationRunQueueRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/organizations/:name/runs/queue', async (c) => {
    // go-tfe's ReadRunQueueOptions sends only page[...]: no filter, search or include is known here
    // (400 naming it, rather than an answer that ignored it).
    rejectUnknownFilters(c, []);
    includesOf(c, []);
    return sendCollection(c, await organizationRunQueue(c.get('ctx'), c.req.param('name'), pageOf(c)), (run) => ({
      id: run.id,
      type: 'runs',
      attributes: { status: run.status, 'created-at': run.createdAt, 'position-in-queue': run.positionInQueue },
      relationships: {
        workspace: toOne('workspaces', run.workspaceId, `${API_PREFIX}/workspaces/${run.workspaceId}`),
      },
      links: { self: `${API_PREFIX}/runs/${run.id}` },
    }));
  });
  r.get('/organizations/:name/capacity', async (c) => {
    const cap = await organizationRunCapacity(c.get('ctx'), c.req.param('name'));
    return sendResource(c, {
      id: cap.organization,
      type: 'organization-capacity',
      attributes: { pending: cap.pending, running: cap.running },
    });
  });
  return r;
}
