import { Hono } from 'hono';
import { assessmentLog, currentAssessmentResult, getAssessmentResult } from '../../../services/runs/assessments.js';
import { sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { serializeAssessmentResult } from '../../serializers/assessment-result.js';

/** Health assessment results (hosted edition): one by id, a workspace's current one, a plan's log. */
export function assessmentResultRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/assessment-results/:id', async (c) =>
    sendResource(c, serializeAssessmentResult(await getAssessmentResult(c.get('ctx'), c.req.param('id')))),
  );
  r.get('/workspaces/:id/current-assessment-result', async (c) =>
    sendResource(c, serializeAssessmentResult(await currentAssessmentResult(c.get('ctx'), c.req.param('id')))),
  );
  r.get('/assessment-results/:id/log-output', async (c) => {
    const log = await assessmentLog(c.get('ctx'), c.req.param('id'));
    return c.body(new Uint8Array(log), 200, { 'Content-Type': 'text/plain; charset=utf-8' });
  });
  return r;
}
