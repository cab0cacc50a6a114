import { Hono } from 'hono';
import { whoami } from '../../../services/identity/identity.js';
import { badRequest } from '../../../domain/common/errors.js';
import { parseTokenOptions } from '../../../domain/identity/token.js';
import {
  createOrganizationToken,
  deleteOrganizationToken,
  readOrganizationToken,
  type OrganizationTokenType,
} from '../../../services/organizations/organization-tokens.js';
import { readTokenById, revokeTokenById } from '../../../services/identity/token-by-id.js';
import { listUserTokens } from '../../../services/identity/tokens.js';
import { readJson } from '../../body.js';
import { sendList, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { queryParam } from '../../query.js';
import { serializeAuthenticationToken } from '../../serializers/token.js';
import type { Context } from 'hono';

/** `?token=audit-trails` names the audit trail token; without it, the organization token. */
function tokenType(c: Context<AppEnv>): OrganizationTokenType {
  const type = queryParam(c, 'token');
  if (type === undefined) return 'organization';
  if (type === 'audit-trails') return 'audit-trails';
  throw badRequest('Invalid token parameter: the only token type is audit-trails', { parameter: 'token' });
}

/** Organization tokens, listing and revoking tokens, and who the caller is. */
export function tokenRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/organizations/:org/authentication-token', async (c) => {
    const ctx = c.get('ctx');
    const type = tokenType(c);
    const options = parseTokenOptions(await readJson(c, { optional: true }), ctx.clock.now());
    const token = await createOrganizationToken(ctx, c.req.param('org'), type, options);
    return sendResource(c, serializeAuthenticationToken(token), { status: 201 });
  });
  r.get('/organizations/:org/authentication-token', async (c) => {
    const token = await readOrganizationToken(c.get('ctx'), c.req.param('org'), tokenType(c));
    return sendResource(c, serializeAuthenticationToken(token));
  });
  r.delete('/organizations/:org/authentication-token', async (c) => {
    await deleteOrganizationToken(c.get('ctx'), c.req.param('org'), tokenType(c));
    return c.body(null, 204);
  });

  r.get('/users/:id/authentication-tokens', async (c) =>
    sendList(c, (await listUserTokens(c.get('ctx'), c.req.param('id'))).map(serializeAuthenticationToken)),
  );
  r.get('/authentication-tokens/:id', async (c) =>
    sendResource(c, serializeAuthenticationToken(await readTokenById(c.get('ctx'), c.req.param('id')))),
  );
  r.delete('/authentication-tokens/:id', async (c) => {
    await revokeTokenById(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  // berth extension: who the token acts as.
  r.get('/whoami', async (c) => {
    const me = await whoami(c.get('ctx'));
    return sendResource(c, {
      id: me.tokenId ?? 'local',
      type: 'identities',
      attributes: {
        kind: me.kind,
        'site-admin': me.siteAdmin,
        'user-id': me.userId,
        username: me.username,
        'team-id': me.teamId,
        'team-name': me.teamName,
        organization: me.organizationName,
      },
    });
  });

  return r;
}
