import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { bool, checkAttributes, nullable, str, text } from '../../../domain/common/attributes.js';
import { TEXT_LIMITS } from '../../../domain/common/limits.js';
import { BerthError } from '../../../domain/common/errors.js';
import { parseTimestamp } from '../../../domain/common/timestamp.js';
import { canMove, RUN_STATUSES, type Run, type RunStatus } from '../../../domain/runs/run.js';
import * as runs from '../../../services/runs/runs.js';
import { readJson, readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, rejectUnknownFilters } from '../../query.js';
import { RUN_INCLUDES, runIncluded } from './run-includes.js';
import { runListDocument, runListIncluded } from './run-list-includes.js';
import { WORKSPACE_RUN_FILTERS, workspaceRunFilterOf } from './run-list-query.js';
import { serializeRun } from '../../serializers/run.js';
import { serializeExecutedRun } from '../../serializers/run-execution.js';
import { actOnRun } from '../../../services/runs/run-actions.js';
import { commentIdsOf } from '../../../services/runs/comments.js';
import { actionComment } from './comments.js';
import { getExecutedRun } from '../../../services/runs/run-documents.js';
import { createExecutedRun } from '../../../services/runs/run-queue.js';
import { runsAreExecuted } from '../../../services/runs/run-without-executor.js';
import { conflict } from '../../../domain/common/errors.js';
import { RESOURCE_ADDRESS, VARIABLE_NAME } from '../../../domain/runs/run-execution.js';
import { refusePolicyPaths, runTerraformVersion } from '../../../domain/runs/run-options.js';

const runAttributes = v.looseObject({
  message: nullable(text(TEXT_LIMITS.runMessage)),
  'is-destroy': v.optional(bool()),
  // berth extension: a run executed elsewhere, whose progress its creator reports (berth run record).
  recorded: v.optional(bool()),
});
const terraformVersionAttribute = v.looseObject({ 'terraform-version': nullable(text(TEXT_LIMITS.terraformVersion)) });
/** What a run that berth executes takes beyond a recorded one's (HCP's run attributes). */
const executedRunAttributes = v.looseObject({
  refresh: v.optional(bool()),
  'refresh-only': v.optional(bool()),
  'plan-only': v.optional(bool()),
  'save-plan': v.optional(bool()),
  'auto-apply': nullable(bool()),
  'allow-empty-apply': v.optional(bool()),
  // Checked with the run's plan-only and executor (domain/runs/run-options.ts), in the service.
  'terraform-version': nullable(text(TEXT_LIMITS.terraformVersion)),
  'target-addrs': nullable(v.array(v.pipe(str(), v.regex(RESOURCE_ADDRESS, 'must be resource addresses')))),
  'replace-addrs': nullable(v.array(v.pipe(str(), v.regex(RESOURCE_ADDRESS, 'must be resource addresses')))),
  variables: nullable(
    v.pipe(
      v.array(
        v.object({
          key: v.pipe(str(), v.regex(VARIABLE_NAME, 'must be a variable name')),
          value: text(64 * 1024),
        }),
        'must be a list of {key, value}',
      ),
      v.maxLength(500, 'must have at most 500 entries'),
    ),
  ),
});

const reportStatus = v.picklist(RUN_STATUSES, `must be one of: ${RUN_STATUSES.join(', ')}`);
const reportAt = v.optional(
  v.pipe(
    str(),
    v.check((s) => parseTimestamp(s) !== null, 'must be an ISO-8601 timestamp'),
  ),
);
const reportAttributes = v.looseObject({
  status: reportStatus,
  at: reportAt,
  // The moves before `status`, in order (a run recorded after the fact: planning, planned, ...):
  // one request, so one audit record per recorded run.
  phases: v.optional(
    v.pipe(
      v.array(v.object({ status: reportStatus, at: reportAt }), 'must be a list of {status, at}'),
      v.maxLength(10, 'must have at most 10 entries'),
    ),
  ),
  'error-message': nullable(text(TEXT_LIMITS.runErrorMessage)),
  'policy-check-failed': v.optional(bool()),
});

type Report = v.InferOutput<typeof reportAttributes>;
/** The attributes that make a `POST /runs` a recorded run's: those of a report. */
const REPORT_KEYS = ['status', 'at', 'phases', 'error-message', 'policy-check-failed'];

/**
 * The moves a report makes from `pending` (its phases, then its status), checked before the run
 * is created, so that a report that cannot be made leaves nothing behind (409).
 */
function movesOf(report: Report): RunStatus[] {
  const moves = [...(report.phases ?? []).map((p) => p.status), report.status];
  if (moves.length === 1 && moves[0] === 'pending') return [];
  let from: RunStatus = 'pending';
  for (const to of moves) {
    if (!canMove(from, to)) throw conflict(`A recorded run cannot move from ${from} to ${to}: nothing was recorded`);
    from = to;
  }
  return moves;
}

/**
 * Makes a report's moves (its phases, then its status), as `actions/report` does: all in one
 * transaction, so a report refused at any move (409, 403) leaves the run exactly as it was.
 */
async function applyReport(c: Context<AppEnv>, id: string, a: Report): Promise<Run> {
  return runs.transitionRunThrough(c.get('ctx'), id, [
    ...(a.phases ?? []).map((phase) => ({
      status: phase.status,
      at: phase.at ? parseTimestamp(phase.at)! : undefined,
    })),
    {
      status: a.status,
      at: a.at ? parseTimestamp(a.at)! : undefined,
      errorMessage: a['error-message'],
      policyCheckFailed: a['policy-check-failed'],
    },
  ]);
}

export function runRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/runs', async (c) => {
    const doc = await readResource(c, 'runs');
    const a = checkAttributes(runAttributes, doc.attributes);
    const ws = (doc.relationships.workspace as { data?: { id?: unknown } } | undefined)?.data?.id;
    const cv = (doc.relationships['configuration-version'] as { data?: { id?: unknown } } | undefined)?.data?.id;
    // A report (`status`, `at`, `phases`...) or `recorded: true` says the run happened elsewhere: it
    // is recorded, never executed, whatever the server does. Without one, a server that executes
    // runs executes it (HCP).
    const recorded = a.recorded === true || REPORT_KEYS.some((k) => k in doc.attributes);
    // Refused for any run, rather than dropped: berth evaluates no policies.
    refusePolicyPaths(doc.attributes['policy-paths']);
    if (recorded && cv !== undefined)
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'A recorded run (with a status report) has no configuration version',
          pointer: '/data/relationships/configuration-version/data/id',
        },
      ]);
    // Without a configuration version, a run berth executes when its workspace's runs are executed
    // here: always where serve executes runs, else only on agent workspaces (run-without-executor.ts).
    const executed =
      !recorded &&
      typeof ws === 'string' &&
      (cv !== undefined || (await runsAreExecuted(c.get('ctx').db, ws, c.get('ctx').settings.executesRuns === true)));
    if (typeof ws === 'string' && executed) {
      // A run berth executes; one that serve itself would execute, on a serve without an executor,
      // ends errored at once (run-without-executor.ts).
      if (cv !== undefined && typeof cv !== 'string')
        throw new BerthError([
          {
            status: 422,
            title: 'invalid attribute',
            detail: 'Configuration version must be an id',
            pointer: '/data/relationships/configuration-version/data/id',
          },
        ]);
      const e = checkAttributes(executedRunAttributes, doc.attributes);
      const run = await createExecutedRun(c.get('ctx'), {
        workspaceId: ws,
        configurationVersionId: cv ?? null,
        message: a.message ?? 'Queued manually via the API',
        isDestroy: a['is-destroy'] ?? false,
        refresh: e.refresh ?? true,
        refreshOnly: e['refresh-only'] ?? false,
        planOnly: e['plan-only'] ?? false,
        savePlan: e['save-plan'] ?? false,
        autoApply: e['auto-apply'] ?? null,
        allowEmptyApply: e['allow-empty-apply'] ?? false,
        targetAddrs: e['target-addrs'] ?? [],
        replaceAddrs: e['replace-addrs'] ?? [],
        variables: e.variables ?? [],
        terraformVersion: e['terraform-version'] ?? null,
      });
      return sendResource(c, serializeExecutedRun(run), { status: 201 });
    }
    if (typeof ws !== 'string') {
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'Workspace is required',
          pointer: '/data/relationships/workspace/data/id',
        },
      ]);
    }
    // A recorded run is no plan-only run: a terraform-version would be dropped (422 instead).
    runTerraformVersion(checkAttributes(terraformVersionAttribute, doc.attributes)['terraform-version'], false, null);
    // A report moves the run; `recorded: true` alone makes a pending recorded run.
    const report = REPORT_KEYS.some((k) => k in doc.attributes)
      ? checkAttributes(reportAttributes, doc.attributes)
      : null;
    const moves = report ? movesOf(report) : [];
    const run = await runs.createRun(c.get('ctx'), {
      workspaceId: ws,
      message: a.message ?? null,
      isDestroy: a['is-destroy'] ?? false,
      applies: moves.some((m) => runs.APPLY_MOVES.includes(m)),
    });
    if (moves.length === 0) return sendResource(c, serializeRun(run), { status: 201 });
    try {
      return sendResource(c, serializeRun(await applyReport(c, run.id, report!)), { status: 201 });
    } catch (err) {
      // Refused on the way (the workspace locked meanwhile): the run does not stay pending as the
      // workspace's current run; it ends as `berth run record` ended it (discarded or canceled).
      const now = await runs.getRun(c.get('ctx'), run.id).catch(() => null);
      if (now && canMove(now.status, now.status === 'pending' ? 'discarded' : 'canceled'))
        await runs
          .transitionRun(c.get('ctx'), run.id, { status: now.status === 'pending' ? 'discarded' : 'canceled' })
          .catch(() => undefined);
      throw err;
    }
  });
  r.get('/runs/:id', async (c) => {
    const include = includesOf(c, RUN_INCLUDES);
    const executed = await getExecutedRun(c.get('ctx'), c.req.param('id'));
    const run: Run = executed ?? (await runs.getRun(c.get('ctx'), c.req.param('id')));
    const base = executed ? serializeExecutedRun(executed) : serializeRun(run);
    // The run's comments by id, as HCP's run document names them (lists carry only the link).
    const comments = await commentIdsOf(c.get('ctx'), run.id);
    const doc = {
      ...base,
      relationships: {
        ...base.relationships,
        comments: { ...base.relationships?.comments, data: comments.map((id) => ({ type: 'comments', id })) },
      },
    };
    if (include.size === 0) return sendResource(c, doc);
    const { included, relationships } = await runIncluded(c, run, include);
    return sendResource(c, { ...doc, relationships: { ...doc.relationships, ...relationships } }, { included });
  });
  r.get('/workspaces/:id/runs', async (c) => {
    // Checked before anything is read: a typo'd filter would answer with every run.
    rejectUnknownFilters(c, WORKSPACE_RUN_FILTERS);
    const include = includesOf(c, RUN_INCLUDES);
    const paged = await runs.listRuns(c.get('ctx'), { id: c.req.param('id') }, pageOf(c), workspaceRunFilterOf(c));
    const { included, relationships } = await runListIncluded(c, paged.items, include);
    return sendCollection(c, paged, (run) => runListDocument(run, relationships), included);
  });

  // HCP Terraform's run actions: 202 Accepted, no body.
  const action = (to: RunStatus) => async (c: Context<AppEnv>) => {
    // The comment given becomes a comment of the run, in the action's transaction.
    const comment = actionComment(await readJson(c, { optional: true }));
    // A run berth executes follows HCP's actions (run-execution.ts); a recorded one moves as told.
    if (await getExecutedRun(c.get('ctx'), c.req.param('id')!)) {
      const name = to === 'apply_queued' ? 'apply' : to === 'discarded' ? 'discard' : 'cancel';
      await actOnRun(c.get('ctx'), c.req.param('id')!, name, comment);
      return c.body(null, 202);
    }
    await runs.transitionRun(c.get('ctx'), c.req.param('id')!, { status: to, comment });
    return c.body(null, 202);
  };
  r.post('/runs/:id/actions/apply', action('apply_queued'));
  r.post('/runs/:id/actions/discard', action('discarded'));
  r.post('/runs/:id/actions/cancel', action('canceled'));

  // berth extension: an external executor reports progress, with the time it happened.
  r.post('/runs/:id/actions/report', async (c) => {
    const doc = await readResource(c, 'run-reports');
    const a = checkAttributes(reportAttributes, doc.attributes);
    return sendResource(c, serializeRun(await applyReport(c, c.req.param('id'), a)));
  });
  return r;
}
