import type { Selectable } from 'kysely';
import { BerthError, conflict, notAuthorized, notFound, payloadTooLarge } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can } from '../../domain/permissions/policy.js';
import {
  MAX_CONFIGURATION_BYTES,
  runUrlValid,
  signedRunQuery,
  type ConfigurationStatus,
  type ConfigurationVersion,
} from '../../domain/runs/run-execution.js';
import { currentOnUpload, uploadRefusal } from '../../domain/runs/configuration-lifecycle.js';
import { DEFAULT_STATE_URL_TTL_SECONDS } from '../../domain/state/state-url.js';
import { inPage } from '../../store/literal-limit.js';
import type { ConfigurationVersionsTable } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { queueUploadedRun } from './run-queue.js';
import { factsOf, makeCurrentConfiguration, runOfConfiguration } from './current-configuration.js';
import { signingKey } from '../state/state-urls.js';
import { readableWorkspace, type WorkspaceRef } from '../workspaces/workspaces-read.js';
import { inWorkspaceOrganization } from '../write-scope.js';

/**
 * Configuration versions (HCP's API; go-tfe's configuration_version.go): the `tar.gz` of a
 * configuration that runs plan. Created `pending` with a signed upload URL, which only the
 * create's answer hands out (as HCP: "After creation, the URL is hidden on the resource"); the
 * upload stores the archive and makes the version `uploaded` (and its workspace's current one,
 * current-configuration.ts), and with `auto-queue-runs` queues a run. Archiving and the
 * backing-data actions: configuration-version-actions.ts.
 */

type CvRow = Selectable<ConfigurationVersionsTable>;

export interface ConfigurationVersionInput {
  autoQueueRuns: boolean;
  speculative: boolean;
  provisional: boolean;
}

/** A configuration version and, in the create's answer only, the signed query of its upload URL. */
export interface ConfigurationVersionView extends ConfigurationVersion {
  uploadQuery: string | null;
}

export const UPLOAD_PURPOSE = 'configuration-upload';

function toCv(row: CvRow, uploadQuery: string | null): ConfigurationVersionView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    status: row.status as ConfigurationStatus,
    source: row.source,
    speculative: row.speculative === 1,
    provisional: row.provisional === 1,
    autoQueueRuns: row.auto_queue_runs === 1,
    size: row.size,
    errorMessage: row.error_message,
    createdAt: row.created_at,
    uploadedAt: row.uploaded_at,
    uploadQuery,
  };
}

async function uploadSigner(ctx: Pick<ServiceContext, 'db' | 'clock' | 'settings'>) {
  const key = await signingKey(ctx.db);
  const now = ctx.clock.now();
  const ttl = ctx.settings.stateUrlTtlSeconds ?? DEFAULT_STATE_URL_TTL_SECONDS;
  return (id: string) => signedRunQuery(key, UPLOAD_PURPOSE, id, now, ttl);
}

export async function createConfigurationVersion(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  input: ConfigurationVersionInput,
): Promise<ConfigurationVersionView> {
  const sign = await uploadSigner(ctx);
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row: ws, facts } = await readableWorkspace(ctx, ref, tx);
    if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('create configuration versions here');
    const row: CvRow = {
      seq: 0,
      id: newId('cv'),
      workspace_id: ws.id,
      status: 'pending',
      source: 'tfe-api',
      speculative: input.speculative ? 1 : 0,
      provisional: input.provisional ? 1 : 0,
      auto_queue_runs: input.autoQueueRuns ? 1 : 0,
      size: 0,
      error_message: null,
      created_by_kind: ctx.actor.kind,
      created_by_id: ctx.actor.tokenId,
      created_at: ctx.clock.now().toISOString(),
      uploaded_at: null,
    };
    const { seq: _seq, ...values } = row;
    await tx.insertInto('configuration_versions').values(values).execute();
    return toCv(row, sign(row.id));
  });
}

export async function readableCv(ctx: ServiceContext, db: Tx, id: string) {
  const row = await db.selectFrom('configuration_versions').selectAll().where('id', '=', id).executeTakeFirst();
  const missing = () => notFound(`configuration version ${id} not found`);
  if (!row) throw missing();
  const { facts } = await readableWorkspace(ctx, { id: row.workspace_id }, db).catch(() => {
    throw missing();
  });
  return { row, facts };
}

export async function getConfigurationVersion(ctx: ServiceContext, id: string): Promise<ConfigurationVersionView> {
  const { row } = await readableCv(ctx, ctx.db, id);
  return toCv(row, null);
}

/**
 * The versions of `ids`, for the includes of workspaces the caller read (whoever reads a workspace
 * reads its configuration versions): no check of its own.
 */
export async function configurationVersionsOf(db: Tx, ids: string[]): Promise<ConfigurationVersionView[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('configuration_versions').selectAll().where('id', 'in', ids).execute();
  return rows.map((r) => toCv(r, null));
}

export async function listConfigurationVersions(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  page: PageRequest,
): Promise<Paged<ConfigurationVersionView>> {
  const { row: ws } = await readableWorkspace(ctx, ref);
  const base = ctx.db.selectFrom('configuration_versions').where('workspace_id', '=', ws.id);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq', 'desc').$call(inPage(page)).execute();
  return { items: rows.map((r) => toCv(r, null)), total: Number(n), page };
}

export interface SignedQuery {
  expires: string | undefined;
  signature: string | undefined;
}

/**
 * Stores the archive PUT to a version's signed upload URL: at most MAX_CONFIGURATION_BYTES (413),
 * a gzip stream (422 otherwise). The first makes the version uploaded and, unless it is
 * speculative or provisional, its workspace's current one; with auto-queue-runs, the same
 * transaction queues a run, made by whoever created the version. Another PUT replaces the
 * archive while no run used the version (as HCP; go-tfe's tests upload twice), and is a 409
 * after, or once the version is archived or its backing data deleted.
 */
export async function uploadConfiguration(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'settings' | 'commitHook'>,
  id: string,
  query: SignedQuery,
  body: Buffer,
): Promise<void> {
  const key = await signingKey(ctx.db);
  if (!runUrlValid(key, UPLOAD_PURPOSE, id, query.expires, query.signature, ctx.clock.now()))
    throw notFound('configuration version not found (or the upload URL has expired)');
  if (body.length > MAX_CONFIGURATION_BYTES)
    throw payloadTooLarge(`configuration archives are limited to ${MAX_CONFIGURATION_BYTES} bytes`);
  if (body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b)
    throw new BerthError([
      { status: 422, title: 'unprocessable entity', detail: 'the configuration must be a tar.gz archive (gzip data)' },
    ]);
  const ws = await ctx.db
    .selectFrom('configuration_versions')
    .select('workspace_id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!ws) throw notFound(`configuration version ${id} not found`);
  await writeTransaction(inWorkspaceOrganization(ctx, { id: ws.workspace_id }), async (tx) => {
    // Once the write lock is held: the upload time, and the run it may queue, follow the order of
    // the writes, also when this one waited for another process's.
    const now = ctx.clock.now().toISOString();
    const row = await tx.selectFrom('configuration_versions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`configuration version ${id} not found`);
    const again = row.status !== 'pending';
    const refusal = uploadRefusal(row, again ? await runOfConfiguration(tx, id) : null);
    if (refusal) throw conflict(refusal);
    if (again) {
      await tx.updateTable('configuration_files').set({ body }).where('configuration_version_id', '=', id).execute();
      await tx
        .updateTable('configuration_versions')
        .set({ size: body.length, uploaded_at: now })
        .where('id', '=', id)
        .execute();
      return;
    }
    await tx.insertInto('configuration_files').values({ configuration_version_id: id, body }).execute();
    await tx
      .updateTable('configuration_versions')
      .set({ status: 'uploaded', size: body.length, uploaded_at: now })
      .where('id', '=', id)
      .execute();
    if (currentOnUpload(factsOf(row))) await makeCurrentConfiguration(tx, row);
    // Without an executor, the run ends errored at once, saying why (run-without-executor.ts).
    if (row.auto_queue_runs === 1) await queueUploadedRun(tx, row, now, ctx.settings.executesRuns === true);
  });
}

/**
 * The archive of an uploaded version (GET /configuration-versions/:id/download); 404 for any
 * other status, as HCP: pending, archived, or its backing data (soft-)deleted.
 */
export async function downloadConfiguration(ctx: ServiceContext, id: string): Promise<Buffer> {
  const { row, facts } = await readableCv(ctx, ctx.db, id);
  if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notFound(`configuration version ${id} not found`);
  if (row.status !== 'uploaded')
    throw notFound(`configuration version ${id} is ${row.status}: it has no configuration to download`);
  const file = await ctx.db
    .selectFrom('configuration_files')
    .select('body')
    .where('configuration_version_id', '=', id)
    .executeTakeFirst();
  if (!file) throw notFound(`configuration version ${id} has no uploaded configuration`);
  return Buffer.from(file.body);
}

/** The archive's bytes, for the executor. */
export async function configurationArchive(db: ServiceContext['db'], id: string): Promise<Buffer | null> {
  const file = await db
    .selectFrom('configuration_files')
    .select('body')
    .where('configuration_version_id', '=', id)
    .executeTakeFirst();
  return file ? Buffer.from(file.body) : null;
}
