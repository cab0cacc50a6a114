import { Hono, type Context } from 'hono';
import { parseRunTriggerSource, parseRunTriggerType } from '../../../domain/workspaces/run-triggers.js';
import type { Workspace } from '../../../domain/workspaces/workspace.js';
import {
  createRunTrigger,
  deleteRunTrigger,
  getRunTrigger,
  listRunTriggers,
  type RunTriggerInclude,
} from '../../../services/workspaces/run-triggers.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam, rejectUnknownFilters } from '../../query.js';
import { serializeRunTrigger } from '../../serializers/run-trigger.js';
import { serializeWorkspace } from '../../serializers/workspace.js';

const INCLUDES = ['workspace', 'sourceable'] as const;
const includes = (c: Context<AppEnv>) => includesOf(c, INCLUDES) as Set<RunTriggerInclude>;
const workspaces = (c: Context<AppEnv>, list: Workspace[]) =>
  list.map((w) => serializeWorkspace(w, { edition: c.get('ctx').settings.edition }));

/** HCP Terraform's Run Triggers API (docs/api.md, "Run triggers"). */
export function runTriggerRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/workspaces/:id/run-triggers', async (c) => {
    // go-tfe sends `type: "run-triggers"`; HCP's sample payload no type at all.
    const body = await readResource(c, 'run-triggers', { untyped: true });
    const trigger = await createRunTrigger(c.get('ctx'), c.req.param('id'), parseRunTriggerSource(body.relationships));
    return sendResource(c, serializeRunTrigger(trigger), { status: 201 });
  });

  r.get('/workspaces/:id/run-triggers', async (c) => {
    rejectUnknownFilters(c, [/^filter\[run-trigger\]\[type\]$/]);
    const type = parseRunTriggerType(queryParam(c, 'filter[run-trigger][type]'));
    const { result, included } = await listRunTriggers(c.get('ctx'), c.req.param('id'), type, pageOf(c), includes(c));
    return sendCollection(c, result, serializeRunTrigger, workspaces(c, included));
  });

  r.get('/run-triggers/:id', async (c) => {
    const { result, included } = await getRunTrigger(c.get('ctx'), c.req.param('id'), includes(c));
    return sendResource(c, serializeRunTrigger(result), { included: workspaces(c, included) });
  });

  r.delete('/run-triggers/:id', async (c) => {
    await deleteRunTrigger(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  return r;
}
