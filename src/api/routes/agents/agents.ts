import { Hono } from 'hono';
import * as agents from '../../../services/agents/agents.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, queryParam } from '../../query.js';
import { serializeAgent } from '../../serializers/agent.js';

/** The agents of a pool (HCP Terraform's Agents API): who may manage the pool sees them, and deletes those that stopped. */
export function agentRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/agent-pools/:id/agents', async (c) => {
    const lastPingSince = agents.parseLastPingSince(queryParam(c, 'filter[last-ping-since]'));
    const paged = await agents.listAgents(c.get('ctx'), c.req.param('id'), pageOf(c), { lastPingSince });
    return sendCollection(c, paged, serializeAgent);
  });
  r.get('/agents/:id', async (c) =>
    sendResource(c, serializeAgent(await agents.readAgent(c.get('ctx'), c.req.param('id')))),
  );
  r.delete('/agents/:id', async (c) => {
    await agents.deleteAgent(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });
  return r;
}
