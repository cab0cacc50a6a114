import { Hono } from 'hono';
import { whoami } from '../../services/identity.js';
import {
  createOrganizationToken,
  deleteOrganizationToken,
  listUserTokens,
  readToken,
  revokeToken,
} from '../../services/tokens.js';
import { readJson } from '../body.js';
import { sendList, sendResource } from '../documents.js';
import type { AppEnv } from '../env.js';
import { serializeToken } from '../serializers/user.js';
import { descriptionOf } from './token-body.js';

/** Organization tokens, listing and revoking tokens, and who the caller is. */
export function tokenRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/organizations/:org/authentication-token', async (c) => {
    const token = await createOrganizationToken(
      c.get('ctx'),
      c.req.param('org'),
      descriptionOf(await readJson(c, { optional: true })),
    );
    return sendResource(c, serializeToken(token), { status: 201 });
  });
  r.delete('/organizations/:org/authentication-token', async (c) => {
    await deleteOrganizationToken(c.get('ctx'), c.req.param('org'));
    return c.body(null, 204);
  });

  r.get('/users/:id/authentication-tokens', async (c) =>
    sendList(c, (await listUserTokens(c.get('ctx'), c.req.param('id'))).map(serializeToken)),
  );
  r.get('/authentication-tokens/:id', async (c) =>
    sendResource(c, serializeToken(await readToken(c.get('ctx'), c.req.param('id')))),
  );
  r.delete('/authentication-tokens/:id', async (c) => {
    await revokeToken(c.get('ctx'), c.req.param('id'));
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
