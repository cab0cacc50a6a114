import type { Selectable } from 'kysely';
import * as v from 'valibot';
import { checkAttributes, int, nullable, str } from '../domain/attributes.js';
import { BerthError, conflict, forbidden, notFound } from '../domain/errors.js';
import { newId, randomTail } from '../domain/ids.js';
import { offsetOf, type PageRequest, type Paged } from '../domain/paging.js';
import { can, type OrgFacts } from '../domain/policy.js';
import { decodeBase64, md5Hex, parseState } from '../domain/state.js';
import type { StateVersion, StateVersionInput } from '../domain/state-version.js';
import { sameHash } from '../domain/token.js';
import type { StateVersionsTable } from '../store/schema.js';
import { memoQuery } from '../store/memo-query.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import type { ServiceContext } from './context.js';
import { holdsLock } from './workspace-locks.js';
import { readableWorkspace, type WorkspaceRef } from './workspaces-read.js';

type Row = Selectable<StateVersionsTable>;

function toStateVersion(row: Row, currentId: string | null): StateVersion {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    serial: row.serial,
    lineage: row.lineage,
    md5: row.md5,
    status: row.status,
    intermediate: row.intermediate === 1,
    current: row.id === currentId,
    resourceCount: row.resource_count,
    size: row.size,
    terraformVersion: row.terraform_version,
    createdAt: row.created_at,
    finalizedAt: row.finalized_at,
    urlSecret: row.url_secret,
  };
}

const schema = v.looseObject({
  serial: v.pipe(int(), v.minValue(0, 'must be 0 or greater')),
  md5: v.pipe(str(), v.regex(/^[0-9a-fA-F]{32}$/, 'must be 32 hexadecimal digits')),
  lineage: nullable(str()),
  state: nullable(str()),
});

/** Validates the attributes of `POST /workspaces/:id/state-versions`. */
export function parseStateVersionAttributes(attributes: unknown): StateVersionInput {
  const a = checkAttributes(schema, attributes);
  return { serial: a.serial, md5: a.md5.toLowerCase(), lineage: a.lineage ?? null, state: a.state ?? null };
}

function invalidState(pointer: string, detail: string): BerthError {
  return new BerthError([{ status: 422, title: 'invalid attribute', detail, pointer }]);
}

/**
 * Checks a state body against the version's md5 (and its serial and lineage when the body has
 * them), and parses it. Throws 422 on any mismatch.
 */
function checkBody(bytes: Buffer, expected: { md5: string; serial: number; lineage: string | null }, pointer: string) {
  if (md5Hex(bytes) !== expected.md5) throw invalidState(pointer, 'State does not match its md5 checksum');
  const parsed = parseState(bytes.toString('utf8'), pointer);
  if (parsed.serial !== null && parsed.serial !== expected.serial)
    throw invalidState(pointer, `State serial ${parsed.serial} does not match serial ${expected.serial}`);
  if (parsed.lineage !== null && expected.lineage !== null && parsed.lineage !== expected.lineage) {
    throw invalidState(pointer, 'State lineage does not match lineage');
  }
  return parsed;
}

/**
 * Creates a state version. The caller must hold the workspace lock (409 otherwise, as in HCP
 * Terraform). With `state`, it is stored and finalized at once; without, it is `pending` until
 * its upload URL receives the body. Either way it is intermediate until the lock is released.
 */
export async function createStateVersion(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  input: StateVersionInput,
): Promise<StateVersion> {
  const now = ctx.clock.now().toISOString();
  const row = await writeTransaction(ctx, async (tx) => {
    const { row: ws, facts } = await readableWorkspace(ctx, ref, tx);
    if (!can(ctx.actor, 'workspace:create-state-versions', facts))
      throw forbidden('not authorized to create state versions in this workspace');
    if (!holdsLock(ctx, ws)) throw conflict('The workspace must be locked by you before you create a state version');
    const newest = await tx
      .selectFrom('state_versions')
      .select((eb) => eb.fn.max('serial').as('serial'))
      .where('workspace_id', '=', ws.id)
      .where('lineage', input.lineage === null ? 'is' : '=', input.lineage)
      .executeTakeFirst();
    if (newest?.serial !== null && newest?.serial !== undefined && Number(newest.serial) > input.serial) {
      throw invalidState(
        '/data/attributes/serial',
        `Serial must not go backwards: this lineage is at serial ${newest.serial}`,
      );
    }
    let body: Buffer | null = null;
    let parsed = null;
    if (input.state !== null) {
      body = decodeBase64(input.state);
      if (!body) throw invalidState('/data/attributes/state', 'State must be base64-encoded');
      parsed = checkBody(body, input, '/data/attributes/state');
    }
    const sv: Row = {
      seq: 0,
      id: newId('sv'),
      workspace_id: ws.id,
      serial: input.serial,
      lineage: input.lineage,
      md5: input.md5,
      status: body ? 'finalized' : 'pending',
      intermediate: 1,
      resource_count: parsed?.resourceCount ?? 0,
      size: body?.length ?? 0,
      terraform_version: parsed?.terraformVersion ?? null,
      url_secret: randomTail(32),
      created_by_kind: ctx.actor.kind,
      created_by_id: ctx.actor.tokenId,
      created_at: now,
      finalized_at: body ? now : null,
    };
    const { seq: _seq, ...values } = sv;
    await tx.insertInto('state_versions').values(values).execute();
    if (body)
      await tx
        .insertInto('state_bodies')
        .values({ state_version_id: sv.id, body: body.toString('utf8') })
        .execute();
    return { sv, current: ws.current_state_version_id };
  });
  return toStateVersion(row.sv, row.current);
}

/** Receives the body of a pending state version through its upload URL (the secret authorizes). */
export async function uploadStateBody(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'commitHook'>,
  id: string,
  secret: string,
  bytes: Buffer,
): Promise<void> {
  await writeTransaction(ctx, async (tx) => {
    const row = await tx.selectFrom('state_versions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || !secretMatches(row.url_secret, secret)) throw notFound('state version not found');
    if (row.status !== 'pending') throw conflict('This state version has already been uploaded');
    const parsed = checkBody(bytes, row, '/');
    await tx
      .insertInto('state_bodies')
      .values({ state_version_id: id, body: bytes.toString('utf8') })
      .execute();
    await tx
      .updateTable('state_versions')
      .set({
        status: 'finalized',
        finalized_at: ctx.clock.now().toISOString(),
        resource_count: parsed.resourceCount,
        size: bytes.length,
        terraform_version: parsed.terraformVersion,
      })
      .where('id', '=', id)
      .execute();
  });
}

function secretMatches(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && sameHash(a.toString('hex'), b.toString('hex'));
}

/** The stored state of a finalized version, through its download URL. */
export async function downloadStateBody(ctx: Pick<ServiceContext, 'db'>, id: string, secret: string): Promise<string> {
  const row = await ctx.db
    .selectFrom('state_versions')
    .leftJoin('state_bodies', 'state_bodies.state_version_id', 'state_versions.id')
    .select(['state_versions.url_secret', 'state_bodies.body'])
    .where('state_versions.id', '=', id)
    .executeTakeFirst();
  if (!row || !secretMatches(row.url_secret, secret)) throw notFound('state version not found');
  if (row.body === null) throw notFound('this state version has no uploaded state yet');
  return row.body;
}

const latestFinalizedIntermediate = memoQuery((db, p: { workspaceId: string }) =>
  db
    .selectFrom('state_versions')
    .select(['id', 'seq', 'resource_count', 'created_at'])
    .where('workspace_id', '=', p.workspaceId)
    .where('intermediate', '=', 1)
    .where('status', '=', 'finalized')
    .orderBy('seq', 'desc')
    .limit(1),
);

/** What promoting a state version needs of it. */
export interface PromotableVersion {
  id: string;
  seq: number;
  resource_count: number;
  created_at: string;
}

/**
 * Makes the latest finalized intermediate version current (on unlock and force-unlock), updating
 * the workspace's resource count and latest-change time. Versions up to it stop being
 * intermediate; with `abandonPending`, pending ones after it do too (force-unlock). True when
 * the workspace row changed (a version was promoted).
 */
export async function promoteIntermediateState(
  tx: Tx,
  workspaceId: string,
  abandonPending = false,
  known?: PromotableVersion | null,
): Promise<boolean> {
  // `known`: the caller already read the latest finalized intermediate version (null: there is none).
  const latest =
    known !== undefined ? (known ?? undefined) : await latestFinalizedIntermediate.first(tx, { workspaceId });
  if (latest) {
    await tx
      .updateTable('workspaces')
      .set({
        current_state_version_id: latest.id,
        resource_count: latest.resource_count,
        latest_change_at: latest.created_at,
      })
      .where('id', '=', workspaceId)
      .execute();
  }
  let done = tx
    .updateTable('state_versions')
    .set({ intermediate: 0 })
    .where('workspace_id', '=', workspaceId)
    .where('intermediate', '=', 1);
  if (!abandonPending) {
    if (!latest) return false;
    done = done.where('seq', '<=', latest.seq);
  }
  await done.execute();
  return latest !== undefined;
}

/** Reading state versions needs state versions `read` (403 for who may only read the workspace). */
function requireStateRead(ctx: ServiceContext, facts: OrgFacts): void {
  if (!can(ctx.actor, 'workspace:read-state-versions', facts))
    throw forbidden('not authorized to read the state versions of this workspace');
}

async function readableVersion(ctx: ServiceContext, id: string) {
  const row = await ctx.db.selectFrom('state_versions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`state version ${id} not found`);
  const { row: ws, facts } = await readableWorkspace(ctx, { id: row.workspace_id }).catch(() => {
    throw notFound(`state version ${id} not found`);
  });
  requireStateRead(ctx, facts);
  return { row, ws };
}

export async function getStateVersion(ctx: ServiceContext, id: string): Promise<StateVersion> {
  const { row, ws } = await readableVersion(ctx, id);
  return toStateVersion(row, ws.current_state_version_id);
}

export async function currentStateVersion(ctx: ServiceContext, ref: WorkspaceRef): Promise<StateVersion> {
  const { row: ws, facts } = await readableWorkspace(ctx, ref);
  requireStateRead(ctx, facts);
  if (!ws.current_state_version_id) throw notFound('the workspace has no current state version');
  const row = await ctx.db
    .selectFrom('state_versions')
    .selectAll()
    .where('id', '=', ws.current_state_version_id)
    .executeTakeFirstOrThrow();
  return toStateVersion(row, ws.current_state_version_id);
}

/** State versions of a workspace, newest first. */
export async function listStateVersions(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  page: PageRequest,
): Promise<Paged<StateVersion>> {
  const { row: ws, facts } = await readableWorkspace(ctx, ref);
  requireStateRead(ctx, facts);
  const base = ctx.db.selectFrom('state_versions').where('workspace_id', '=', ws.id);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq', 'desc').limit(page.size).offset(offsetOf(page)).execute();
  return { items: rows.map((r) => toStateVersion(r, ws.current_state_version_id)), total: Number(n), page };
}

/** The outputs of the current state (for `include=outputs`); sensitive values are hidden. */
export async function currentOutputs(db: Tx, stateVersionId: string | null) {
  if (!stateVersionId) return [];
  const body = await db
    .selectFrom('state_bodies')
    .select('body')
    .where('state_version_id', '=', stateVersionId)
    .executeTakeFirst();
  if (!body) return [];
  return parseState(body.body, '/').outputs.map((o) => ({ ...o, value: o.sensitive ? null : o.value }));
}
