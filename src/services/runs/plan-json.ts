import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import { badRequest, conflict, notAuthorized, notFound, payloadTooLarge } from '../../domain/common/errors.js';
import { MAX_PLAN_JSON_BYTES, planJsonTooLarge } from '../../domain/common/limits.js';
import { can } from '../../domain/permissions/policy.js';
import type { PhaseStatus } from '../../domain/runs/run-execution.js';
import { redactedPlan } from '../../domain/runs/plan-json.js';
import { sensitiveValues } from '../../domain/variables/hcl-leaves.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { effectiveVariablesOfRun } from '../variables/effective.js';
import { inOrganizationOf } from '../write-scope.js';
import { isExecuted, readableRunRow } from './run-rows.js';

/**
 * The JSON plan of a run (migration 038): `terraform show -json` of the plan its plan phase saved
 * and the provider schemas (`terraform providers schema -json`), handed over by the executor before
 * the phase ends and kept as long as the run. Served whole to the workspace's admins
 * (`GET /plans/:id/json-output`), redacted to whoever may read the run
 * (`GET /plans/:id/json-output-redacted`, what `terraform show` of a saved cloud plan renders).
 */

type Db = Kysely<DB>;

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** `body` parsed, when it is a JSON object (null otherwise). */
const jsonObject = (body: Buffer): object | null => {
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
};

/** The redacted plan document of a JSON plan and its provider schemas, serialized. */
const redactedBody = (plan: unknown, schemas: unknown, secrets: readonly string[]): Buffer =>
  Buffer.from(JSON.stringify(redactedPlan(plan, schemas, secrets)));

/**
 * What the redacted plan of `runId` hides besides what terraform marks: the sensitive values the
 * run is given, with the leaves of HCL ones, as its log conceals them, and each line of a
 * multi-line one (terraform prints those a line at a time). Read as the executor reads them.
 */
async function planSecrets(db: Db, runId: string): Promise<string[]> {
  const vars = await effectiveVariablesOfRun(db, runId);
  const out = new Set<string>();
  for (const v of sensitiveValues([...vars.terraform, ...vars.env])) {
    out.add(v);
    if (/[\r\n]/.test(v)) for (const line of v.split(/\r?\n/)) if (line.trim().length >= 4) out.add(line.trim());
  }
  return [...out];
}

/**
 * Keeps the run's JSON plan and provider schemas (each a JSON object, 400 otherwise), while the run
 * is still `planning` (409 otherwise); together over MAX_PLAN_JSON_BYTES, a 413. A second store
 * replaces the first. The bodies are kept as sent, byte for byte, and the redacted document is
 * made here, once (migration 039), not on every read of it, hiding the sensitive values the run was
 * given (planSecrets).
 */
export async function storePlanJson(db: Db, runId: string, plan: Buffer, schemas: Buffer, now: string) {
  const size = plan.length + schemas.length;
  if (size > MAX_PLAN_JSON_BYTES) throw payloadTooLarge(planJsonTooLarge(size));
  const planDoc = jsonObject(plan);
  if (!planDoc) throw badRequest('the JSON plan is not a JSON object');
  const schemasDoc = jsonObject(schemas);
  if (!schemasDoc) throw badRequest('the provider schemas are not a JSON object');
  const redacted = redactedBody(planDoc, schemasDoc, await planSecrets(db, runId));
  const [planZ, schemasZ, redactedZ] = await Promise.all([gzipAsync(plan), gzipAsync(schemas), gzipAsync(redacted)]);
  // Confined to the run's organization: on PostgreSQL, the other organizations' writes do not
  // wait while these bodies (up to MAX_PLAN_JSON_BYTES) are sent.
  await writeTransaction(inOrganizationOf({ db }, 'runs', runId), async (tx) => {
    const run = await tx.selectFrom('runs').select('status').where('id', '=', runId).executeTakeFirst();
    if (!run) throw notFound(`run ${runId} not found`);
    if (run.status !== 'planning') throw conflict(`run ${runId} is ${run.status}: it stores no JSON plan now`);
    await tx.deleteFrom('plan_json_outputs').where('run_id', '=', runId).execute();
    await tx
      .insertInto('plan_json_outputs')
      .values({
        run_id: runId,
        plan_json: planZ,
        provider_schemas: schemasZ,
        redacted_json: redactedZ,
        size,
        created_at: now,
      })
      .execute();
  });
}

/** A plan still on its way: its JSON is not there yet (the route answers 204, as HCP does). */
const UNDONE: PhaseStatus[] = ['pending', 'queued', 'running'];

/**
 * The JSON plan of `plan-…`: `redacted` the document the Terraform CLI renders (anyone who may read
 * the run), else `terraform show -json` as the executor made it (admins of the workspace only, and
 * not the organization token, as HCP says; 404 to anyone else). null while the plan has not ended;
 * 404 for a plan that ended without one (errored, canceled, plan-only, or made before migration 038).
 */
export async function planJsonOutput(ctx: ServiceContext, planId: string, redacted: boolean): Promise<Buffer | null> {
  const missing = () => notFound(`${planId} not found`);
  if (!planId.startsWith('plan-')) throw missing();
  const { row, facts } = await readableRunRow(ctx, ctx.db, `run-${planId.slice('plan-'.length)}`).catch(() => {
    throw missing();
  });
  if (!isExecuted(row)) throw missing();
  if (!redacted && (ctx.actor.kind === 'organization' || !can(ctx.actor, 'workspace:update', facts)))
    throw notAuthorized(`read the unredacted JSON plan of ${planId} (workspace admins only)`);
  if (UNDONE.includes((row.plan_status ?? 'pending') as PhaseStatus)) return null;
  const stored = await ctx.db
    .selectFrom('plan_json_outputs')
    .select(['run_id'])
    .select(redacted ? 'redacted_json as body' : 'plan_json as body')
    .where('run_id', '=', row.id)
    .executeTakeFirst();
  if (!stored) throw notFound(`${planId} has no JSON plan`);
  if (stored.body !== null) return gunzipAsync(Buffer.from(stored.body));
  // Stored before migration 039: redacted from the plan and its schemas on each read.
  const old = await ctx.db
    .selectFrom('plan_json_outputs')
    .select(['plan_json', 'provider_schemas'])
    .where('run_id', '=', row.id)
    .executeTakeFirstOrThrow();
  const [plan, schemas] = await Promise.all([
    gunzipAsync(Buffer.from(old.plan_json)),
    gunzipAsync(Buffer.from(old.provider_schemas)),
  ]);
  // With the values the run's workspace has now (those it was given may have changed since).
  const secrets = await planSecrets(ctx.db, row.id);
  return redactedBody(JSON.parse(plan.toString('utf8')), JSON.parse(schemas.toString('utf8')), secrets);
}
