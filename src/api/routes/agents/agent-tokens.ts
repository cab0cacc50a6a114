import { Hono } from 'hono';
import { Problems } from '../../../domain/common/errors.js';
import { checkLength, TEXT_LIMITS } from '../../../domain/common/limits.js';
import * as agentTokens from '../../../services/agents/agent-tokens.js';
import { readJson } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf } from '../../query.js';
import { serializeAgentToken } from '../../serializers/agent.js';

/** The required `description` of an agent token (as go-tfe, which refuses to send none). */
function parseDescription(body: Record<string, unknown> | null): string {
  const data = body?.data as { attributes?: Record<string, unknown> } | undefined;
  const d = data && typeof data === 'object' ? data.attributes?.description : undefined;
  const problems = new Problems();
  const pointer = '/data/attributes/description';
  if (typeof d !== 'string' || d.trim() === '') problems.add(pointer, "Description can't be blank");
  else checkLength(problems, pointer, 'Description', d, TEXT_LIMITS.tokenDescription);
  problems.throwIfAny();
  return d as string;
}

/**
 * An agent pool's tokens (HCP Terraform's Agent Tokens API). Reading and deleting one by id is
 * `/authentication-tokens/:id`, shared with the other tokens (routes/tokens.ts, through
 * services/identity/token-by-id.ts).
 */
export function agentTokenRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/agent-pools/:id/authentication-tokens', async (c) => {
    const description = parseDescription(await readJson(c, { optional: true }));
    const token = await agentTokens.createAgentToken(c.get('ctx'), c.req.param('id'), description);
    return sendResource(c, serializeAgentToken(token), { status: 201 });
  });
  r.get('/agent-pools/:id/authentication-tokens', async (c) =>
    sendCollection(
      c,
      await agentTokens.listAgentTokens(c.get('ctx'), c.req.param('id'), pageOf(c)),
      serializeAgentToken,
    ),
  );
  // An agent token by id; any other id goes on to the other tokens' routes (routes/tokens.ts).
  r.get('/authentication-tokens/:id', async (c, next) => {
    if (!(await agentTokens.isAgentToken(c.get('ctx'), c.req.param('id')))) return next();
    return sendResource(c, serializeAgentToken(await agentTokens.readAgentToken(c.get('ctx'), c.req.param('id'))));
  });
  r.delete('/authentication-tokens/:id', async (c, next) => {
    if (!(await agentTokens.isAgentToken(c.get('ctx'), c.req.param('id')))) return next();
    await agentTokens.deleteAgentToken(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });
  return r;
}
