import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { BerthError } from '../../../domain/common/errors.js';
import { readiness } from '../../../services/instance/health.js';
import type { DB } from '../../../store/schema.js';
import { sendError } from '../../errors.js';

/**
 * Health checks for load balancers and supervisors, outside /api/v2 (no token, no rate limit):
 * - `GET /healthz`: the process is alive and answering (never touches the database);
 * - `GET /readyz`: the database answers and its migrations are current; 503 with the reason
 *   otherwise, so that a balancer sends no traffic to this instance until it is.
 */
export function healthRoutes(db: Kysely<DB>): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const r = await readiness(db);
    if (r.ready) return c.json({ status: 'ready' });
    return sendError(
      c,
      new BerthError([{ status: 503, title: 'service unavailable', detail: `not ready: ${r.reason}` }], {
        'Retry-After': '1',
      }),
    );
  });
  return app;
}
