import { Hono } from 'hono';
import { invalid } from '../../../domain/common/errors.js';
import { systemClock } from '../../../domain/common/clock.js';
import { createSignInLink, exchangeSignInCode, type SignIn } from '../../../services/identity/console-sign-in.js';
import type { CommitHook } from '../../../store/transaction.js';
import { readResource } from '../../body.js';
import { API_PREFIX, sendResource } from '../../documents.js';
import type { AppEnv, AppOptions } from '../../env.js';
import { serializeAuthenticationToken } from '../../serializers/token.js';

/**
 * `POST /console/sign-in-links` (berth extension, authenticated): a one-time sign-in link's code
 * for the calling user, valid 60 seconds (`berth login --web`).
 */
export function consoleSignInLinkRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/console/sign-in-links', async (c) => {
    const link = await createSignInLink(c.get('ctx'));
    return sendResource(
      c,
      {
        id: link.id,
        type: 'console-sign-in-links',
        attributes: { code: link.code, 'expires-at': link.expiresAt },
        links: { self: `${API_PREFIX}/console/sign-in-links/${link.id}` },
      },
      { status: 201 },
    );
  });
  return r;
}

/**
 * `POST /console/sign-ins` (berth extension, no token: the code is the credential): trades a
 * sign-in link's code for a new token of its user. Mounted before the token check, inside the
 * rate limit (per client address, as every request without a token).
 */
export function consoleSignInRoutes(options: Pick<AppOptions, 'db' | 'clock'>): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/console/sign-ins', async (c) => {
    const { attributes } = await readResource(c, 'console-sign-ins');
    const code = attributes.code;
    if (typeof code !== 'string' || code === '') throw invalid('/data/attributes/code', 'Code must be a string');
    const hook = c.get('commitHook') as CommitHook | undefined;
    // The audit record names the user the code signed in: the actor is known only inside the
    // transaction, so it is set just before the record is written.
    const commitHook: CommitHook | undefined = hook && {
      async beforeCommit(tx, result) {
        c.set('actor', (result as SignIn).actor);
        await hook.beforeCommit(tx, result);
      },
      afterCommit: () => hook.afterCommit(),
    };
    const signIn = await exchangeSignInCode({ db: options.db, clock: options.clock ?? systemClock, commitHook }, code);
    return sendResource(c, serializeAuthenticationToken(signIn.token), { status: 201 });
  });
  return r;
}
