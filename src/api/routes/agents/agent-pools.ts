import { Hono } from 'hono';
import { parseAgentPoolInput } from '../../../domain/agents/agent-pool.js';
import { parseOAuthTokenAttributes } from '../../../domain/organizations/oauth-token.js';
import * as pools from '../../../services/organizations/agent-pools.js';
import * as tokens from '../../../services/organizations/oauth-tokens.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam, rejectUnknownFilters } from '../../query.js';
import { serializeAgentPool, serializeOAuthToken } from '../../serializers/agent-pool.js';

/**
 * What go-tfe's AgentPoolListOptions sends: filter[allowed_workspaces][name] (applied) and
 * filter[allowed_projects][name] (accepted, not applied: berth pools allow workspaces only). Any
 * other `filter[...]`/`search[...]` is a 400 naming it.
 */
const AGENT_POOL_FILTERS = [/^filter\[allowed_workspaces\]\[name\]$/, /^filter\[allowed_projects\]\[name\]$/];
/** go-tfe's AgentPoolIncludeOpt values: accepted, nothing is included; any other is a 400. */
const AGENT_POOL_INCLUDES = ['workspaces', 'hyok_configurations'];

/**
 * The minimal records the workspace rules refer to: agent pools (for `agent` execution) and
 * OAuth tokens (VCS connections named by `vcs-repo.oauth-token-id`).
 */
export function agentPoolRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/organizations/:org/agent-pools', async (c) => {
    const input = parseAgentPoolInput(await readResource(c, 'agent-pools'), 'create');
    return sendResource(c, serializeAgentPool(await pools.createAgentPool(c.get('ctx'), c.req.param('org'), input)), {
      status: 201,
    });
  });
  r.get('/organizations/:org/agent-pools', async (c) => {
    rejectUnknownFilters(c, AGENT_POOL_FILTERS);
    includesOf(c, AGENT_POOL_INCLUDES);
    const paged = await pools.listAgentPools(c.get('ctx'), c.req.param('org'), pageOf(c), {
      q: queryParam(c, 'q'),
      allowedWorkspaceName: queryParam(c, 'filter[allowed_workspaces][name]'),
    });
    return sendCollection(c, paged, serializeAgentPool);
  });
  r.get('/agent-pools/:id', async (c) =>
    sendResource(c, serializeAgentPool(await pools.getAgentPool(c.get('ctx'), c.req.param('id')))),
  );
  r.patch('/agent-pools/:id', async (c) => {
    const input = parseAgentPoolInput(await readResource(c, 'agent-pools'), 'update');
    return sendResource(c, serializeAgentPool(await pools.updateAgentPool(c.get('ctx'), c.req.param('id'), input)));
  });
  r.delete('/agent-pools/:id', async (c) => {
    await pools.deleteAgentPool(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  // berth extension: HCP Terraform creates OAuth tokens through an OAuth client's handshake.
  r.post('/organizations/:org/oauth-tokens', async (c) => {
    const input = parseOAuthTokenAttributes((await readResource(c, 'oauth-tokens')).attributes);
    return sendResource(
      c,
      serializeOAuthToken(await tokens.createOAuthToken(c.get('ctx'), c.req.param('org'), input)),
      { status: 201 },
    );
  });
  r.get('/organizations/:org/oauth-tokens', async (c) => {
    const paged = await tokens.listOAuthTokens(c.get('ctx'), c.req.param('org'), pageOf(c));
    return sendCollection(c, paged, serializeOAuthToken);
  });
  r.get('/oauth-tokens/:id', async (c) =>
    sendResource(c, serializeOAuthToken(await tokens.getOAuthToken(c.get('ctx'), c.req.param('id')))),
  );

  return r;
}
