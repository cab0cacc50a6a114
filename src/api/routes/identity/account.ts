import { Hono } from 'hono';
import { parseAccountAttributes } from '../../../domain/identity/user.js';
import { currentAccount, updateAccount } from '../../../services/identity/account.js';
import { readResource } from '../../body.js';
import { sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { serializeAccount } from '../../serializers/account.js';
import { serializeUser } from '../../serializers/user.js';

/** The caller's own account, as HCP Terraform's Account API has it. */
export function accountRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/account/details', async (c) => sendResource(c, serializeAccount(await currentAccount(c.get('ctx')))));

  r.patch('/account/update', async (c) => {
    const input = parseAccountAttributes((await readResource(c, 'users')).attributes);
    return sendResource(c, serializeUser(await updateAccount(c.get('ctx'), input)));
  });

  return r;
}
