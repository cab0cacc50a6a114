import { Hono, type Context } from 'hono';
import { parsePage } from '../../../domain/common/paging.js';
import {
  currentStateVersionOutputs,
  getStateVersionOutput,
  listStateVersionOutputs,
} from '../../../services/state/state-outputs.js';
import { listWorkspaceResources } from '../../../services/workspaces/workspace-resources.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, rejectUnknownFilters } from '../../query.js';
import { serializeStateVersionOutput, serializeWorkspaceResource } from '../../serializers/state-version.js';

/** The page asked for, or null (everything) when neither page parameter is given. */
function pageIfAsked(c: Context<AppEnv>) {
  const number = c.req.query('page[number]');
  const size = c.req.query('page[size]');
  return number === undefined && size === undefined ? null : parsePage(number, size);
}

/** What a workspace's state holds: state version outputs, current outputs, and resources. */
export function stateOutputRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  // go-tfe's list options for these lists send only page[...]: any filter[...] or search[...] is
  // a 400 naming it, never an answer that ignored it.
  for (const path of [
    '/state-versions/:id/outputs',
    '/workspaces/:id/current-state-version-outputs',
    '/workspaces/:id/resources',
  ])
    r.get(path, async (c, next) => {
      rejectUnknownFilters(c, []);
      await next();
    });
  r.get('/state-versions/:id/outputs', async (c) =>
    sendCollection(
      c,
      await listStateVersionOutputs(c.get('ctx'), c.req.param('id'), pageOf(c)),
      serializeStateVersionOutput,
    ),
  );
  r.get('/state-version-outputs/:id', async (c) =>
    sendResource(c, serializeStateVersionOutput(await getStateVersionOutput(c.get('ctx'), c.req.param('id')))),
  );
  r.get('/workspaces/:id/current-state-version-outputs', async (c) =>
    sendCollection(
      c,
      await currentStateVersionOutputs(c.get('ctx'), { id: c.req.param('id') }, pageIfAsked(c)),
      serializeStateVersionOutput,
    ),
  );
  r.get('/workspaces/:id/resources', async (c) =>
    sendCollection(
      c,
      await listWorkspaceResources(c.get('ctx'), { id: c.req.param('id') }, pageOf(c)),
      serializeWorkspaceResource,
    ),
  );
  return r;
}
