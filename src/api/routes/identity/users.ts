import { Hono } from 'hono';
import { parseTokenOptions } from '../../../domain/identity/token.js';
import { parseUserAttributes } from '../../../domain/identity/user.js';
import { createSiteAdminToken, createUserToken } from '../../../services/identity/tokens.js';
import * as users from '../../../services/identity/users.js';
import { readJson, readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, queryParam } from '../../query.js';
import { serializeUser, serializeUserView } from '../../serializers/user.js';
import { serializeAuthenticationToken } from '../../serializers/token.js';
import { descriptionOf } from './token-body.js';

/**
 * Users of the instance (the admin API, as Terraform Enterprise names it, plus `POST`, which is a
 * berth extension since berth has no sign-up page) and their tokens.
 */
export function userRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/admin/users', async (c) => {
    const paged = await users.listUsers(c.get('ctx'), pageOf(c), queryParam(c, 'q'));
    return sendCollection(c, paged, serializeUser);
  });

  r.post('/admin/users', async (c) => {
    const input = parseUserAttributes((await readResource(c, 'users')).attributes);
    return sendResource(c, serializeUser(await users.createUser(c.get('ctx'), input)), { status: 201 });
  });

  r.delete('/admin/users/:id', async (c) => {
    await users.deleteUser(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  r.get('/users/:id', async (c) =>
    sendResource(c, serializeUserView(await users.showUser(c.get('ctx'), c.req.param('id')))),
  );

  r.post('/users/:id/authentication-tokens', async (c) => {
    const ctx = c.get('ctx');
    const { description, expiredAt } = parseTokenOptions(await readJson(c, { optional: true }), ctx.clock.now());
    const token = await createUserToken(ctx, c.req.param('id'), description ?? null, expiredAt);
    return sendResource(c, serializeAuthenticationToken(token), { status: 201 });
  });

  // berth extension: site-administrator tokens, minted by a site administrator.
  r.post('/admin/authentication-tokens', async (c) => {
    const description = descriptionOf(await readJson(c, { optional: true }));
    const token = await createSiteAdminToken(c.get('ctx'), description);
    return sendResource(c, serializeAuthenticationToken(token), { status: 201 });
  });

  return r;
}
