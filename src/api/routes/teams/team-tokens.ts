import { Hono } from 'hono';
import { badRequest } from '../../../domain/common/errors.js';
import { parseTokenOptions } from '../../../domain/identity/token.js';
import {
  createTeamToken,
  deleteLegacyTeamToken,
  listTeamTokens,
  listTokensOfTeam,
  readLegacyTeamToken,
  TEAM_TOKEN_SORTS,
  type TeamTokenListOptions,
  type TeamTokenSort,
} from '../../../services/teams/team-tokens.js';
import { readJson } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, queryParam } from '../../query.js';
import { serializeAuthenticationToken } from '../../serializers/token.js';
import type { Context } from 'hono';

function listOptions(c: Context<AppEnv>): TeamTokenListOptions {
  const options: TeamTokenListOptions = { q: queryParam(c, 'q') };
  const sort = queryParam(c, 'sort');
  if (sort !== undefined) {
    const descending = sort.startsWith('-');
    const by = (descending ? sort.slice(1) : sort) as TeamTokenSort;
    if (!TEAM_TOKEN_SORTS.includes(by))
      throw badRequest(`Invalid sort parameter: use ${TEAM_TOKEN_SORTS.join(', ')}, optionally prefixed with -`, {
        parameter: 'sort',
      });
    options.sort = { by, descending };
  }
  return options;
}

/**
 * Team tokens: the legacy single token (`/teams/:id/authentication-token`), tokens with a
 * description (`/teams/:id/authentication-tokens`), and an organization's team tokens. Reading
 * and revoking by id is `/authentication-tokens/:id` (routes/tokens.ts).
 */
export function teamTokenRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  const create = async (c: Context<AppEnv>) => {
    const ctx = c.get('ctx');
    const options = parseTokenOptions(await readJson(c, { optional: true }), ctx.clock.now());
    const token = await createTeamToken(ctx, c.req.param('id')!, options);
    return sendResource(c, serializeAuthenticationToken(token), { status: 201 });
  };
  r.post('/teams/:id/authentication-token', create);
  r.post('/teams/:id/authentication-tokens', create);
  r.get('/teams/:id/authentication-token', async (c) =>
    sendResource(c, serializeAuthenticationToken(await readLegacyTeamToken(c.get('ctx'), c.req.param('id')))),
  );
  r.delete('/teams/:id/authentication-token', async (c) => {
    await deleteLegacyTeamToken(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });
  r.get('/teams/:id/authentication-tokens', async (c) =>
    sendCollection(
      c,
      await listTokensOfTeam(c.get('ctx'), c.req.param('id'), pageOf(c), listOptions(c)),
      serializeAuthenticationToken,
    ),
  );
  r.get('/organizations/:org/team-tokens', async (c) =>
    sendCollection(
      c,
      await listTeamTokens(c.get('ctx'), c.req.param('org'), pageOf(c), listOptions(c)),
      serializeAuthenticationToken,
    ),
  );

  return r;
}
