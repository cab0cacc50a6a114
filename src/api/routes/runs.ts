import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { bool, checkAttributes, nullable, str, text } from '../../domain/attributes.js';
import { TEXT_LIMITS } from '../../domain/limits.js';
import { BerthError } from '../../domain/errors.js';
import { parseTimestamp } from '../../domain/timestamp.js';
import { RUN_STATUSES, type RunStatus } from '../../domain/run.js';
import * as runs from '../../services/runs.js';
import { readJson, readResource } from '../body.js';
import { sendCollection, sendResource } from '../documents.js';
import type { AppEnv } from '../env.js';
import { pageOf } from '../query.js';
import { serializeRun } from '../serializers/run.js';

const runAttributes = v.looseObject({
  message: nullable(text(TEXT_LIMITS.runMessage)),
  'is-destroy': v.optional(bool()),
});
const reportAttributes = v.looseObject({
  status: v.picklist(RUN_STATUSES, `must be one of: ${RUN_STATUSES.join(', ')}`),
  at: v.optional(
    v.pipe(
      str(),
      v.check((s) => parseTimestamp(s) !== null, 'must be an ISO-8601 timestamp'),
    ),
  ),
  'error-message': nullable(text(TEXT_LIMITS.runErrorMessage)),
  'policy-check-failed': v.optional(bool()),
});

export function runRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/runs', async (c) => {
    const doc = await readResource(c, 'runs');
    const a = checkAttributes(runAttributes, doc.attributes);
    const ws = (doc.relationships.workspace as { data?: { id?: unknown } } | undefined)?.data?.id;
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
    const run = await runs.createRun(c.get('ctx'), {
      workspaceId: ws,
      message: a.message ?? null,
      isDestroy: a['is-destroy'] ?? false,
    });
    return sendResource(c, serializeRun(run), { status: 201 });
  });
  r.get('/runs/:id', async (c) => sendResource(c, serializeRun(await runs.getRun(c.get('ctx'), c.req.param('id')))));
  r.get('/workspaces/:id/runs', async (c) =>
    sendCollection(c, await runs.listRuns(c.get('ctx'), { id: c.req.param('id') }, pageOf(c)), serializeRun),
  );

  // HCP Terraform's run actions: 202 Accepted, no body.
  const action = (to: RunStatus) => async (c: Context<AppEnv>) => {
    await readJson(c, { optional: true });
    await runs.transitionRun(c.get('ctx'), c.req.param('id')!, { status: to });
    return c.body(null, 202);
  };
  r.post('/runs/:id/actions/apply', action('apply_queued'));
  r.post('/runs/:id/actions/discard', action('discarded'));
  r.post('/runs/:id/actions/cancel', action('canceled'));

  // berth extension: an external executor reports progress, with the time it happened.
  r.post('/runs/:id/actions/report', async (c) => {
    const doc = await readResource(c, 'run-reports');
    const a = checkAttributes(reportAttributes, doc.attributes);
    const run = await runs.transitionRun(c.get('ctx'), c.req.param('id'), {
      status: a.status,
      at: a.at ? parseTimestamp(a.at)! : undefined,
      errorMessage: a['error-message'],
      policyCheckFailed: a['policy-check-failed'],
    });
    return sendResource(c, serializeRun(run));
  });
  return r;
}
