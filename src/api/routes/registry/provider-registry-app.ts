import { Hono } from 'hono';
import { payloadTooLarge } from '../../../domain/common/errors.js';
import { systemClock } from '../../../domain/common/clock.js';
import { authMiddleware } from '../../auth.js';
import { BODY_LIMIT } from '../../body.js';
import { requestBodyLimit } from '../../body-limit.js';
import type { AppEnv, AppOptions } from '../../env.js';
import { gpgKeyRoutes } from './gpg-key-routes.js';
import { mirrorRoutes } from './mirror-routes.js';
import { providerFileRoutes } from './provider-file-routes.js';
import { providerProtocolRoutes } from './provider-protocol-routes.js';

/**
 * What the provider registry serves under `/api/registry` (app.ts mounts it): the signed file
 * URLs first (no token), then, with a token, the GPG Keys API, the provider registry protocol and
 * the organizations' mirrors. The token middleware is bound to these paths only, so that other
 * routes under /api/registry (the module registry's) keep their own.
 */
export function providerRegistryRoutes(options: AppOptions): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.route('/', providerFileRoutes({ db: options.db, clock: options.clock ?? systemClock }));
  const auth = authMiddleware(options);
  const jsonLimit = requestBodyLimit(BODY_LIMIT, () => {
    throw payloadTooLarge(`request bodies are limited to ${BODY_LIMIT} bytes`);
  });
  r.use('/private/v2/gpg-keys', jsonLimit, auth);
  r.use('/private/v2/gpg-keys/*', jsonLimit, auth);
  r.use('/v1/providers/*', auth);
  r.use('/mirror/*', auth);
  r.route('/', gpgKeyRoutes());
  r.route('/', providerProtocolRoutes());
  r.route('/', mirrorRoutes());
  return r;
}
