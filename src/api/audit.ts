import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AuditActor } from '../domain/audit/audit.js';
import { systemClock } from '../domain/common/clock.js';
import {
  pointedAt,
  resolveSubject,
  configurationVersionCreator,
  registryModuleVersionCreator,
  stateVersionCreator,
  type Subject,
  type SubjectRef,
} from '../services/audit/audit-subjects.js';
import { auditActorOf, recordAuditEvent, retargetAuditEvent } from '../services/audit/audit-trail.js';
import { writeTransaction } from '../store/transaction.js';
import { auditRouteOf, paramsOf, pathSubjectOf, returnedSubjectOf, type AuditRoute } from './audit-actions.js';
import type { AppEnv, AppOptions } from './env.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NOTHING: Subject = {
  target: { type: null, id: null, name: null },
  organizationId: null,
  organizationName: null,
  workspaceId: null,
};
const UNKNOWN_ACTOR: AuditActor = { kind: 'unknown', id: null, tokenId: null, name: null };

/** The single resource a successful create answered with, as a subject reference. */
async function createdRef(res: Response): Promise<SubjectRef | null> {
  if (!(res.headers.get('content-type') ?? '').includes('json')) return null;
  const doc = (await res
    .clone()
    .json()
    .catch(() => null)) as { data?: { type?: unknown; id?: unknown } } | null;
  const data = doc?.data;
  if (!data || Array.isArray(data) || typeof data.type !== 'string' || typeof data.id !== 'string') return null;
  return data.type === 'organizations' ? { type: 'organizations', name: data.id } : { type: data.type, id: data.id };
}

/**
 * The audit trail's recorder, the second middleware. For a mutating request it names the action
 * from the matched route (audit-actions.ts), resolves what the path names before the handler runs
 * (a deleted workspace must still be named), and attaches a commit hook: the first write
 * transaction the request commits carries the record, so a change and its record commit or roll
 * back together. A create's record names what it created: from inside that transaction when the
 * route declares what its transaction returns (`returns`), else by pointing the record at the
 * response's resource afterwards. A successful request that committed no transaction of its own
 * is recorded on its own. Failed requests whose transactions rolled back leave nothing.
 */
export function auditMiddleware(options: AppOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (READS.has(c.req.method)) return next();
    // The handler's pattern: the last matched route registered for this method (middlewares
    // registered with `use` match every method, and may come after it).
    const pattern = matchedRoutes(c).findLast((m) => m.method === c.req.method)?.path;
    if (!pattern) return next();
    const route = auditRouteOf(c.req.method, pattern) ?? fallbackRoute(pattern, c.req.method);
    if (!route) return next();
    const params = paramsOf(pattern, new URL(c.req.url).pathname);
    const ref = pathSubjectOf(route, params);
    // What the path names, resolved before the handler runs (a deleted workspace must still be
    // named); for a route that keeps it (`keepsSubject`), resolved when first needed instead:
    // inside the request's write transaction, which reads it anyway (on SQLite the writer
    // connection, whose page cache is warm, where the main connection's was just emptied by the
    // last commit), else after the response.
    let subject: Subject | null = !ref ? NOTHING : route.keepsSubject ? null : await resolveSubject(options.db, ref);
    const subjectIn = async (db: typeof options.db): Promise<Subject> =>
      (subject ??= ref ? await resolveSubject(db, ref) : NOTHING);
    // State uploads carry no token: the creator of the state version is the actor.
    const uploader = !params.id
      ? null
      : route.action === 'state-version.upload'
        ? await stateVersionCreator(options.db, params.id)
        : route.action === 'configuration-version.upload'
          ? await configurationVersionCreator(options.db, params.id)
          : route.action === 'registry-module-version.upload'
            ? await registryModuleVersionCreator(options.db, params.id)
            : null;

    const clock = () => c.get('ctx')?.clock ?? options.clock ?? systemClock;
    const actor = () => {
      const a = c.get('actor');
      return a ? auditActorOf(a) : (uploader ?? UNKNOWN_ACTOR);
    };
    const input = (s: Subject) => ({
      time: clock().now().toISOString(),
      action: route.action,
      actor: actor(),
      subject: s,
      requestId: c.get('requestId') ?? null,
    });

    // The record's `seq` once committed.
    let recorded: number | null = null;
    // Whether the record already names what the request created (no retarget needed).
    let named = false;
    let pending: { seq: number; named: boolean } | null = null;
    // Services pass it, in their context, to every write transaction of the request.
    c.set('commitHook', {
      async beforeCommit(tx, result) {
        if (recorded !== null) return;
        const made = returnedSubjectOf(route, result);
        const known = await subjectIn(tx);
        const s = made ? pointedAt(known, await resolveSubject(tx, made)) : known;
        pending = { seq: await recordAuditEvent(tx, input(s)), named: made !== null };
      },
      afterCommit() {
        if (recorded !== null || !pending) return;
        recorded = pending.seq;
        named = pending.named;
      },
    });
    await next();

    if (c.res.status >= 400 || named) return;
    try {
      const created = route.creates ? await createdRef(c.res) : null;
      const known = await subjectIn(options.db);
      const final = created ? await resolveSubject(options.db, created) : known;
      // The record is the only row these write: its organization's write lock is enough (on
      // PostgreSQL; see store/transaction.ts), and keeps that organization's trail in order.
      const inTrail = (organizationId: string | null) => ({
        db: options.db,
        organization: () => Promise.resolve(organizationId ?? undefined),
      });
      if (recorded === null)
        await writeTransaction(inTrail(final.organizationId), (tx) => recordAuditEvent(tx, input(final)));
      else if (created) {
        const seq = recorded;
        const trail = inTrail(final.organizationId ?? known.organizationId);
        await writeTransaction(trail, (tx) => retargetAuditEvent(tx, seq, final));
      }
    } catch (err) {
      // The change itself succeeded: answer it as such, and report the lost detail.
      options.onUnexpectedError?.(err);
    }
  };
}

/** A mutating route missing from the table still leaves a record (the coverage test forbids it). */
function fallbackRoute(pattern: string, method: string): AuditRoute | undefined {
  if (!pattern.startsWith('/api/v2/')) return undefined;
  return { action: `request.${method.toLowerCase()}`, subject: null };
}
