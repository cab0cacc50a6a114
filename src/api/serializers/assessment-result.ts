import type { AssessmentResult } from '../../services/runs/assessments.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/** An assessment result as HCP Terraform's Assessment Results API shows it (hosted edition). */
export function serializeAssessmentResult(r: AssessmentResult): ResourceObject {
  const self = `${API_PREFIX}/assessment-results/${r.id}`;
  return {
    id: r.id,
    type: 'assessment-results',
    attributes: {
      drifted: r.drifted,
      succeeded: r.succeeded,
      'error-msg': r.errorMessage,
      'created-at': r.createdAt,
    },
    relationships: {
      workspace: toOne('workspaces', r.workspaceId, `${API_PREFIX}/workspaces/${r.workspaceId}`),
      run: toOne('runs', r.runId, `${API_PREFIX}/runs/${r.runId}`),
    },
    links: { self, 'log-output': `${self}/log-output` },
  };
}
