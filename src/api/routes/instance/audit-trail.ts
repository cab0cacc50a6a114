import { Hono } from 'hono';
import { parseAuditFilter } from '../../../domain/audit/audit.js';
import { listAuditEvents } from '../../../services/audit/audit-trail.js';
import { sendCollection } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, queryParam } from '../../query.js';
import { serializeAuditEvent } from '../../serializers/audit-event.js';

/** The audit trail of an organization: owners and its organization token only. */
export function auditTrailRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/organizations/:org/audit-trail', async (c) => {
    const filter = parseAuditFilter({
      since: queryParam(c, 'filter[since]'),
      actor: queryParam(c, 'filter[actor]'),
      workspace: queryParam(c, 'filter[workspace]'),
    });
    const page = pageOf(c);
    return sendCollection(
      c,
      await listAuditEvents(c.get('ctx'), c.req.param('org'), filter, page),
      serializeAuditEvent,
    );
  });
  return r;
}
