import type { TestApi } from '../helpers/api.js';
import type { SeededOrg } from './seed.js';

export interface Route {
  method: string;
  path: string;
}

/** Every route the app registers (middleware entries, method ALL, left out), in registration order. */
export function appRoutes(api: TestApi): Route[] {
  const seen = new Set<string>();
  const out: Route[] = [];
  for (const r of api.app.routes) {
    if (r.method === 'ALL') continue;
    const key = `${r.method} ${r.path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method, path: r.path });
  }
  return out;
}

export const routeKey = (r: Route) => `${r.method} ${r.path}`;

/** The parameter names of a route path, each with the segment before it (`workspaces/:id` gives `workspaces`). */
export function paramsOf(path: string): { name: string; index: number; before: string; path: string }[] {
  const segments = path.split('/');
  return segments.flatMap((s, index) =>
    s.startsWith(':') ? [{ name: s.slice(1), index, before: segments[index - 1] ?? '', path }] : [],
  );
}

/** The run routes that get the executed run (the others, the recorded one). */
const EXECUTED_RUN_ROUTE = /\/runs\/:id\/(?:run-events|actions\/(?:apply|discard|cancel|force-cancel|force-execute))$/;

/** The real value of seeded organization `s` that a route parameter names. */
export function realParam(param: { name: string; before: string; path?: string }, s: SeededOrg): string {
  if (param.name === 'org' || (param.name === 'name' && param.before === 'organizations')) return s.org;
  if (param.name === 'name' && param.before === 'workspaces') return s.workspaceName;
  // A log URL: /run-logs/:phase/:expires/:signature, signed for the seeded plan.
  if (param.name === 'phase') return s.planId;
  if (param.name === 'expires') return s.planLogPath.split('/')[0];
  if (param.name === 'signature') return s.planLogPath.split('/')[1];
  if (param.before === 'runs' && param.path && EXECUTED_RUN_ROUTE.test(param.path)) return s.executedRunId;
  const byCollection: Record<string, string> = {
    workspaces: s.workspaceId,
    projects: s.projectId,
    teams: s.teamId,
    'team-projects': s.teamProjectId,
    'team-workspaces': s.teamWorkspaceId,
    'agent-pools': s.agentPoolId,
    tags: s.tagId,
    'reserved-tag-keys': s.reservedTagKeyId,
    'reserved-tags': s.reservedTagKeyId,
    'oauth-tokens': s.oauthTokenId,
    'state-versions': s.stateVersionId,
    'state-version-outputs': s.stateVersionOutputId,
    runs: s.runId,
    comments: s.commentId,
    'run-events': s.runEventId,
    'configuration-versions': s.configurationVersionId,
    plans: s.planId,
    applies: s.applyId,
    'ssh-keys': s.sshKeyId,
    'notification-configurations': s.notificationConfigurationId,
    'authentication-tokens': s.userTokenId,
    'organization-memberships': s.membershipId,
    users: s.ownerUserId,
    vars: param.path?.includes('/varsets/') ? s.varsetVariableId : s.variableId,
    varsets: s.varsetId,
    agents: s.agentId,
    // Assessment results exist on the hosted edition only: any well-formed id (a 404 here).
    'assessment-results': 'asmtres-0000000000000000',
    // berth has no task stages: any well-formed id (a 404 for everyone).
    'task-stages': 'ts-0000000000000000',
  };
  const value = byCollection[param.before];
  if (value === undefined) throw new Error(`no seeded value for :${param.name} after ${param.before}`);
  return value;
}

/** The route path with its parameters replaced by `values` (already URL-safe). */
export function fillPath(path: string, values: string[]): string {
  const segments = path.split('/');
  let i = 0;
  return segments.map((s) => (s.startsWith(':') ? values[i++] : s)).join('/');
}
