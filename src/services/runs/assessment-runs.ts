import { sql, type SqlBool } from 'kysely';

/**
 * Health assessment runs (assessments.ts) are not the workspace's runs as people see them: HCP
 * Terraform shows assessments on the workspace's health page and through the assessment results
 * API, never in its runs. So every list of runs (a workspace's runs, the organization's run queue
 * and capacity, the performance attributes) leaves them out with this condition; they stay
 * readable one by one (`GET /runs/:id`, which an assessment result's `run` names, and its logs),
 * and the executors claim them like any run. An assessment run is one with an assessment result
 * (`assessment_results.run_id`, indexed).
 */
export const notAnAssessment = sql<SqlBool>`not exists (select 1 from assessment_results where assessment_results.run_id = runs.id)`;
