import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { bool, checkAttributes } from '../../../domain/common/attributes.js';
import { payloadTooLarge } from '../../../domain/common/errors.js';
import { LOG_END, MAX_CONFIGURATION_BYTES } from '../../../domain/runs/run-execution.js';
import { onRunLogMayHaveGrown } from '../../../runner/wake.js';
import * as cvs from '../../../services/runs/configuration-versions.js';
import type { ServiceContext } from '../../../services/context.js';
import { actOnRun } from '../../../services/runs/run-actions.js';
import { forceExecuteRun } from '../../../services/runs/force-execute.js';
import * as docs from '../../../services/runs/run-documents.js';
import { planJsonOutput } from '../../../services/runs/plan-json.js';
import { readJson, readResource } from '../../body.js';
import { actionComment } from './comments.js';
import { requestBodyLimit } from '../../body-limit.js';
import { API_PREFIX, sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf } from '../../query.js';
import { readStateBody } from '../../state-body.js';
import {
  serializeConfigurationVersion,
  serializeExecutedApply,
  serializeExecutedPlan,
} from '../../serializers/run-execution.js';

const origin = (c: Context<AppEnv>) => new URL(c.req.url).origin;

/** How long a log read at the end of a log still being written waits for more. */
export const LOG_WAIT_MS = 2_000;
/** How often such a read looks again without being told (an executor of another instance). */
const LOG_LOOK_MS = 250;
const END = LOG_END.charCodeAt(0);

/** Resolves when `runId`'s executor (in this process) wrote to its log, after `ms`, or when the client left. */
function logMayGrow(runId: string, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const off = onRunLogMayHaveGrown((id) => id === runId && done());
    signal.addEventListener('abort', done);
  });
}

const cvAttributes = v.looseObject({
  'auto-queue-runs': v.optional(bool()),
  speculative: v.optional(bool()),
  provisional: v.optional(bool()),
});

/** Configuration versions, plans and applies of executed runs (token-authenticated). */
export function runExecutionRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/workspaces/:id/configuration-versions', async (c) => {
    const doc = await readResource(c, 'configuration-versions');
    const a = checkAttributes(cvAttributes, doc.attributes);
    const cv = await cvs.createConfigurationVersion(
      c.get('ctx'),
      { id: c.req.param('id') },
      {
        autoQueueRuns: a['auto-queue-runs'] ?? true,
        speculative: a.speculative ?? false,
        provisional: a.provisional ?? false,
      },
    );
    return sendResource(c, serializeConfigurationVersion(cv, origin(c)), { status: 201 });
  });
  r.get('/workspaces/:id/configuration-versions', async (c) =>
    sendCollection(c, await cvs.listConfigurationVersions(c.get('ctx'), { id: c.req.param('id') }, pageOf(c)), (cv) =>
      serializeConfigurationVersion(cv, origin(c)),
    ),
  );
  r.get('/configuration-versions/:id', async (c) =>
    sendResource(
      c,
      serializeConfigurationVersion(await cvs.getConfigurationVersion(c.get('ctx'), c.req.param('id')), origin(c)),
    ),
  );
  r.get('/configuration-versions/:id/download', async (c) => {
    const body = await cvs.downloadConfiguration(c.get('ctx'), c.req.param('id'));
    return c.body(new Uint8Array(body), 200, {
      'Content-Type': 'application/octet-stream',
      'Cache-Control': 'no-store',
      'Content-Disposition': `attachment; filename="${c.req.param('id')}.tar.gz"`,
    });
  });
  const logUrl = async (c: Context<AppEnv>, phaseId: string) =>
    `${origin(c)}${API_PREFIX}/run-logs/${phaseId}/${await docs.logUrlPath(c.get('ctx'), phaseId)}`;
  r.get('/plans/:id', async (c) => {
    const id = c.req.param('id');
    const run = await docs.runOfPhase(c.get('ctx'), id);
    return sendResource(c, serializeExecutedPlan(run, await logUrl(c, id)));
  });
  // The plan as JSON: whole for the workspace's admins, redacted for whoever reads the run (what
  // `terraform show` of a saved cloud plan renders). 204 while the plan runs, as HCP answers;
  // berth answers the JSON itself rather than a redirect to it.
  const planJson = (redacted: boolean) => async (c: Context<AppEnv>) => {
    const body = await planJsonOutput(c.get('ctx'), c.req.param('id') ?? '', redacted);
    if (!body) return c.body(null, 204);
    return c.body(new Uint8Array(body), 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  };
  r.get('/plans/:id/json-output', planJson(false));
  r.get('/plans/:id/json-output-redacted', planJson(true));
  r.get('/applies/:id', async (c) => {
    const id = c.req.param('id');
    const run = await docs.runOfPhase(c.get('ctx'), id);
    return sendResource(c, serializeExecutedApply(run, await logUrl(c, id)));
  });
  // The run's events are routes/comments.ts (its history and comments).
  r.post('/runs/:id/actions/force-cancel', async (c) => {
    const comment = actionComment(await readJson(c, { optional: true }));
    await actOnRun(c.get('ctx'), c.req.param('id'), 'force-cancel', comment);
    return c.body(null, 202);
  });
  // HCP's "Run this plan now": it takes no body (an empty one, or `{}`, is taken too).
  r.post('/runs/:id/actions/force-execute', async (c) => {
    await readJson(c, { optional: true });
    await forceExecuteRun(c.get('ctx'), c.req.param('id'));
    return c.body(null, 202);
  });
  return r;
}

/**
 * The signed URLs of executed runs, mounted before token authentication: the configuration
 * upload (its own body limit) and the log reads. A log URL carries its signature in the path:
 * go-tfe's log reader replaces the query string with `limit=&offset=`.
 */
export function runContentRoutes(context: Pick<ServiceContext, 'db' | 'clock' | 'settings'>): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  const limit = requestBodyLimit(MAX_CONFIGURATION_BYTES, () => {
    throw payloadTooLarge(`configuration archives are limited to ${MAX_CONFIGURATION_BYTES} bytes`);
  });
  r.put('/configuration-versions/:id/upload', limit, async (c) => {
    await cvs.uploadConfiguration(
      { ...context, commitHook: c.get('commitHook') },
      c.req.param('id'),
      { expires: c.req.query('expires'), signature: c.req.query('signature') },
      await readStateBody(c),
    );
    return c.body(null, 200);
  });
  r.get('/run-logs/:phase/:expires/:signature', async (c) => {
    const phaseId = c.req.param('phase');
    const read = () => docs.readLog(context, phaseId, c.req.param('expires'), c.req.param('signature'));
    let log = await read();
    const offset = Math.max(0, Number.parseInt(c.req.query('offset') ?? '0', 10) || 0);
    // A read at the end of a log still being written waits a little for more (long poll): the
    // Terraform CLI (go-tfe) sleeps 0.5 to 2 s after each empty read, the output meanwhile.
    const until = Date.now() + LOG_WAIT_MS;
    const signal = c.req.raw.signal;
    while (offset >= log.length && log.at(-1) !== END && !signal.aborted && Date.now() < until) {
      await logMayGrow(`run-${docs.tailOf(phaseId)}`, Math.min(LOG_LOOK_MS, until - Date.now()), signal);
      if ((await docs.logLength(context, phaseId)) !== log.length) log = await read();
    }
    const limitRaw = Number.parseInt(c.req.query('limit') ?? '', 10);
    const size = Number.isFinite(limitRaw) && limitRaw > 0 ? Math.min(limitRaw, 1024 * 1024) : 1024 * 1024;
    const part = offset >= log.length ? Buffer.alloc(0) : log.subarray(offset, offset + size);
    return c.body(new Uint8Array(part), 200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });
  return r;
}
