import { createHmac } from 'node:crypto';

/**
 * What a notification says: the facts an event leaves in the outbox (frozen when it happened:
 * a run's status then, not at delivery), and HCP's generic payloads built from them
 * (docs/api.md, "Notification configurations"): version 1 for runs and verifications, version 2
 * (`trigger_scope`, `details`) for assessments and auto-destroys. Slack, Microsoft Teams and
 * email are chat-payloads.ts.
 */

export interface RunFacts {
  scope: 'run';
  trigger: string;
  message: string;
  runId: string;
  runMessage: string | null;
  runCreatedAt: string;
  runCreatedBy: string | null;
  runStatus: string;
  runUpdatedAt: string;
  runUpdatedBy: string | null;
  workspaceId: string;
  workspaceName: string;
  organizationName: string;
}

export interface AssessmentResultFacts {
  id: string;
  succeeded: boolean;
  drifted: boolean;
  createdAt: string;
}

export interface AssessmentFacts {
  scope: 'assessment';
  trigger: string;
  message: string;
  newResult: AssessmentResultFacts;
  priorResult: AssessmentResultFacts | null;
  workspaceId: string;
  workspaceName: string;
  organizationName: string;
}

export interface AutoDestroyFacts {
  scope: 'workspace';
  trigger: string;
  message: string;
  triggerType: 'reminder' | 'results';
  autoDestroyAt: string | null;
  runCreatedAt: string | null;
  runStatus: string | null;
  runExternalId: string | null;
  runCreateErrorMessage: string | null;
  workspaceId: string;
  workspaceName: string;
  organizationName: string;
}

/** The request a verification sends (`POST .../actions/verify`, and enabling a configuration). */
export interface VerificationFacts {
  scope: 'verification';
  trigger: 'verification';
  message: string;
}

export type NotificationFacts = RunFacts | AssessmentFacts | AutoDestroyFacts | VerificationFacts;

/** The configuration a payload is for. */
export interface PayloadTarget {
  id: string;
  name: string;
}

/** Where links point: berth's URL as clients reach it (`serve --hostname`, else its listening address). */
export interface PayloadLinks {
  baseUrl: string;
}

/** The console's page of a workspace: berth's console has no page of its own per run. */
export function workspaceUrl(links: PayloadLinks, organization: string, workspace: string): string {
  return `${links.baseUrl}/#/orgs/${encodeURIComponent(organization)}/workspaces/${encodeURIComponent(workspace)}`;
}

export function verificationFacts(name: string): VerificationFacts {
  return { scope: 'verification', trigger: 'verification', message: `Verification of ${name}` };
}

const resultOf = (links: PayloadLinks, r: AssessmentResultFacts | null) =>
  r && {
    id: r.id,
    url: `${links.baseUrl}/api/v2/assessment-results/${r.id}`,
    succeeded: r.succeeded,
    drifted: r.drifted,
    // berth's assessments run no checks and count no drifted resources.
    all_checks_succeeded: true,
    resources_drifted: null,
    resources_undrifted: null,
    checks_passed: 0,
    checks_failed: 0,
    checks_errored: 0,
    checks_unknown: 0,
    created_at: r.createdAt,
  };

/** HCP's generic payload of `facts`, for the configuration `target`. */
export function genericPayload(target: PayloadTarget, facts: NotificationFacts, links: PayloadLinks): unknown {
  if (facts.scope === 'verification' || facts.scope === 'run') {
    const run = facts.scope === 'run' ? facts : null;
    return {
      payload_version: 1,
      notification_configuration_id: target.id,
      run_url: run && `${workspaceUrl(links, run.organizationName, run.workspaceName)}?run=${run.runId}`,
      run_id: run?.runId ?? null,
      run_message: run?.runMessage ?? null,
      run_created_at: run?.runCreatedAt ?? null,
      run_created_by: run?.runCreatedBy ?? null,
      workspace_id: run?.workspaceId ?? null,
      workspace_name: run?.workspaceName ?? null,
      organization_name: run?.organizationName ?? null,
      notifications: [
        {
          message: facts.message,
          trigger: facts.trigger,
          run_status: run?.runStatus ?? null,
          run_updated_at: run?.runUpdatedAt ?? null,
          run_updated_by: run?.runUpdatedBy ?? null,
        },
      ],
    };
  }
  const head = {
    payload_version: '2',
    notification_configuration_id: target.id,
    notification_configuration_url: `${links.baseUrl}/api/v2/notification-configurations/${target.id}`,
    trigger_scope: facts.scope,
    trigger: facts.trigger,
    message: facts.message,
  };
  if (facts.scope === 'assessment')
    return {
      ...head,
      details: {
        new_assessment_result: resultOf(links, facts.newResult),
        prior_assessment_result: resultOf(links, facts.priorResult),
        workspace_id: facts.workspaceId,
        workspace_name: facts.workspaceName,
        organization_name: facts.organizationName,
      },
    };
  return {
    ...head,
    details: {
      auto_destroy_at: facts.autoDestroyAt,
      run_created_at: facts.runCreatedAt,
      run_status: facts.runStatus,
      run_external_id: facts.runExternalId,
      run_create_error_message: facts.runCreateErrorMessage,
      trigger_type: facts.triggerType,
      workspace_id: facts.workspaceId,
      workspace_name: facts.workspaceName,
      organization_name: facts.organizationName,
    },
  };
}

/** `X-TFE-Notification-Signature`: the hex HMAC-SHA512 of the body under the configuration's token. */
export function notificationSignature(token: string, body: string): string {
  return createHmac('sha512', token).update(body).digest('hex');
}
