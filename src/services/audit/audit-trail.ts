import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Actor } from '../../domain/permissions/actor.js';
import type { AuditActor, AuditEvent, AuditFilter } from '../../domain/audit/audit.js';
import { notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can } from '../../domain/permissions/policy.js';
import type { AuditEventsTable, DB } from '../../store/schema.js';
import { memoQuery } from '../../store/memo-query.js';
import type { Tx } from '../../store/transaction.js';
import type { Subject } from './audit-subjects.js';
import type { ServiceContext } from '../context.js';
import { orgFacts } from '../access.js';
import { findOrganizationRow, readableOrganization } from '../organizations/organizations.js';
import { inPage } from '../../store/literal-limit.js';

/** The organization, for an audit trail token: 404 unless the token is that organization's. */
async function auditTrailOrganization(ctx: ServiceContext, name: string) {
  const row = await findOrganizationRow(ctx.db, name);
  const facts = row ? await orgFacts(ctx.db, ctx.actor, row.id) : null;
  if (!row || !facts || !can(ctx.actor, 'organization:read-audit-trail', facts))
    throw notFound(`organization ${name} not found`);
  return { row, facts };
}

/** The audit trail's view of an authenticated actor. */
export function auditActorOf(actor: Actor): AuditActor {
  switch (actor.kind) {
    case 'site-admin':
      return { kind: 'site-admin', id: null, tokenId: actor.tokenId, name: null };
    case 'user':
      return { kind: 'user', id: actor.userId, tokenId: actor.tokenId, name: actor.username };
    case 'team':
      return { kind: 'team', id: actor.teamId, tokenId: actor.tokenId, name: null };
    case 'organization':
    case 'audit-trail':
      return { kind: actor.kind, id: actor.organizationId, tokenId: actor.tokenId, name: null };
    // A run's token: the record names the run (its token's id is the run token's, never its secret).
    case 'run':
      return { kind: 'run', id: actor.runId, tokenId: actor.tokenId, name: actor.runId };
  }
}

/** What a record needs; the id is made here. */
export interface AuditRecordInput {
  time: string;
  action: string;
  actor: AuditActor;
  subject: Subject;
  requestId: string | null;
}

function columnsOf(subject: Subject) {
  return {
    target_type: subject.target.type,
    target_id: subject.target.id,
    target_name: subject.target.name,
    organization_id: subject.organizationId,
    organization_name: subject.organizationName,
    workspace_id: subject.workspaceId,
  };
}

/**
 * The name a person reads for an actor that has none on its token: a team token's team, an
 * organization or audit trail token's organization (as they are named at the time of the change).
 */
async function actorNameOf(tx: Tx, actor: AuditActor): Promise<string | null> {
  if (actor.name !== null || actor.id === null) return actor.name;
  if (actor.kind === 'team') {
    const team = await tx.selectFrom('teams').select('name').where('id', '=', actor.id).executeTakeFirst();
    return team?.name ?? null;
  }
  if (actor.kind === 'organization' || actor.kind === 'audit-trail') {
    const org = await tx.selectFrom('organizations').select('name').where('id', '=', actor.id).executeTakeFirst();
    return org?.name ?? null;
  }
  return null;
}

const insertRecord = memoQuery((db, row: Insertable<AuditEventsTable>) =>
  db.insertInto('audit_events').values(row).returning('seq'),
);

/**
 * Inserts one record. Called inside the change's own write transaction (see the API's audit
 * middleware), so the change and its record commit or roll back together. Returns its `seq`
 * (its integer key, by which `retargetAuditEvent` finds it: `id` has no index, migration 018).
 */
export async function recordAuditEvent(tx: Tx, input: AuditRecordInput): Promise<number> {
  const id = newId('ae');
  const [row] = await insertRecord.execute(tx, {
    id,
    occurred_at: input.time,
    action: input.action,
    actor_kind: input.actor.kind,
    actor_id: input.actor.id,
    actor_token_id: input.actor.tokenId,
    actor_name: await actorNameOf(tx, input.actor),
    request_id: input.requestId,
    ...columnsOf(input.subject),
  });
  return row.seq;
}

/**
 * Completes a record once the response is known: a create learns the id of what it created
 * (the record was written, inside the change's transaction, with the collection's parent).
 */
export async function retargetAuditEvent(db: Kysely<DB>, seq: number, subject: Subject): Promise<void> {
  const values = columnsOf(subject);
  // Keep the organization known at the time of the change when the new target has none.
  const { organization_id, organization_name, ...rest } = values;
  await db
    .updateTable('audit_events')
    .set(organization_id ? values : rest)
    .where('seq', '=', seq)
    .execute();
}

function toEvent(r: Selectable<AuditEventsTable>): AuditEvent {
  return {
    id: r.id,
    time: r.occurred_at,
    action: r.action,
    actor: { kind: r.actor_kind, id: r.actor_id, tokenId: r.actor_token_id, name: r.actor_name },
    target: { type: r.target_type, id: r.target_id, name: r.target_name },
    organizationName: r.organization_name,
    workspaceId: r.workspace_id,
    requestId: r.request_id,
  };
}

/**
 * The audit trail of an organization, newest first. Owners and the organization's token only:
 * 404 for callers who cannot read the organization and for members who may not read it.
 */
export async function listAuditEvents(
  ctx: ServiceContext,
  organization: string,
  filter: AuditFilter,
  page: PageRequest,
): Promise<Paged<AuditEvent>> {
  // The organization's audit trail token reads the trail without reading the organization.
  const { row: org, facts } =
    ctx.actor.kind === 'audit-trail'
      ? await auditTrailOrganization(ctx, organization)
      : await readableOrganization(ctx, organization);
  if (!can(ctx.actor, 'organization:read-audit-trail', facts))
    throw notAuthorized('read the audit trail of this organization (owners only)');
  let q = ctx.db.selectFrom('audit_events').where('organization_id', '=', org.id);
  if (filter.since) q = q.where('occurred_at', '>=', filter.since);
  if (filter.actor) {
    const actor = filter.actor;
    q = actor.startsWith('at-') ? q.where('actor_token_id', '=', actor) : q.where('actor_id', '=', actor);
  }
  if (filter.workspace) q = q.where('workspace_id', '=', filter.workspace);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q.selectAll().orderBy('seq', 'desc').$call(inPage(page)).execute();
  return { items: rows.map(toEvent), total: Number(n), page };
}
