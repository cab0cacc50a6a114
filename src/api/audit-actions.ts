import type { SubjectRef } from '../services/audit/audit-subjects.js';

/**
 * The audit trail's name for every mutating route: a stable dotted action, the JSON:API type of
 * the subject the path names (`:id`, or `:org`/`:name` for organizations), and whether the route
 * creates something (its record then names what the response returns). Workspace routes
 * addressed by organization and name share the entries of their `/workspaces/:id` twins.
 * test/api/audit/audit-trail-coverage.test.ts fails when a mutating route is missing here.
 */
export interface AuditRoute {
  action: string;
  /** The type the path's parameter names; null when the path names nothing (instance-wide). */
  subject: string | null;
  creates?: boolean;
  /**
   * For a create whose first write transaction returns what it made (an object with its `id`):
   * that resource's type. Its record then names it from inside that transaction, instead of
   * being pointed at it once the response is known.
   */
  returns?: string;
  /**
   * The route neither deletes nor renames what its path names: the record may resolve it inside
   * the request's write transaction (see the audit middleware) rather than before the handler.
   */
  keepsSubject?: boolean;
}

/** `route`, whose subject its record may resolve inside the request's transaction (`keepsSubject`). */
const keeping = (route: AuditRoute): AuditRoute => ({ ...route, keepsSubject: true });

const r = (action: string, subject: string | null, creates = false, returns?: string): AuditRoute =>
  returns ? { action, subject, creates, returns } : { action, subject, creates };

export const AUDIT_ROUTES: Record<string, AuditRoute> = {
  'POST /organizations': r('organization.create', null, true),
  'PATCH /organizations/:name': r('organization.update', 'organizations'),
  'DELETE /organizations/:name': r('organization.delete', 'organizations'),
  'POST /organizations/:org/relationships/data-retention-policy': r(
    'organization.data-retention-policy.set',
    'organizations',
  ),
  'PATCH /organizations/:org/relationships/data-retention-policy': r(
    'organization.data-retention-policy.set',
    'organizations',
  ),
  'DELETE /organizations/:org/relationships/data-retention-policy': r(
    'organization.data-retention-policy.delete',
    'organizations',
  ),
  'POST /organizations/:org/authentication-token': r('organization-token.create', 'organizations', true),
  'DELETE /organizations/:org/authentication-token': r('organization-token.delete', 'organizations'),

  'POST /organizations/:org/projects': r('project.create', 'organizations', true, 'projects'),
  'PATCH /projects/:id': r('project.update', 'projects'),
  'DELETE /projects/:id': r('project.delete', 'projects'),
  'PATCH /projects/:id/tag-bindings': r('project.tag-bindings.add', 'projects'),
  'POST /projects/:id/relationships/tag-bindings': r('project.tag-bindings.add', 'projects'),
  'PATCH /projects/:id/relationships/tag-bindings': r('project.tag-bindings.replace', 'projects'),
  'POST /projects/:id/relationships/workspaces': r('project.move-workspaces', 'projects'),

  'POST /organizations/:org/varsets': r('varset.create', 'organizations', true, 'varsets'),
  'PATCH /varsets/:id': r('varset.update', 'varsets'),
  'PUT /varsets/:id': r('varset.update', 'varsets'),
  'DELETE /varsets/:id': r('varset.delete', 'varsets'),
  'POST /varsets/:id/relationships/workspaces': keeping(r('varset.workspaces.add', 'varsets')),
  'DELETE /varsets/:id/relationships/workspaces': keeping(r('varset.workspaces.remove', 'varsets')),
  'POST /varsets/:id/relationships/projects': keeping(r('varset.projects.add', 'varsets')),
  'DELETE /varsets/:id/relationships/projects': keeping(r('varset.projects.remove', 'varsets')),
  'POST /varsets/:id/relationships/vars': keeping(r('varset.variable.create', 'varsets')),
  'PATCH /varsets/:id/relationships/vars/:var': keeping(r('varset.variable.update', 'varsets')),
  'DELETE /varsets/:id/relationships/vars/:var': keeping(r('varset.variable.delete', 'varsets')),

  'POST /admin/users': r('user.create', null, true),
  'DELETE /admin/users/:id': r('user.delete', 'users'),
  'POST /users/:id/authentication-tokens': r('user-token.create', 'users', true),
  'POST /admin/authentication-tokens': r('site-admin-token.create', null, true),
  'DELETE /authentication-tokens/:id': r('token.revoke', 'authentication-tokens'),
  'PATCH /account/update': r('account.update', null),
  'POST /console/sign-in-links': r('console.sign-in-link.create', null, true),
  'POST /console/sign-ins': r('console.sign-in', null, true, 'authentication-tokens'),
  'POST /terraform-login/approvals': r('terraform-login.approve', null, true, 'terraform-login-approvals'),
  'POST /terraform-login/denials': r('terraform-login.deny', null),
  'POST /terraform-login/token': r('terraform-login.token', null, true, 'authentication-tokens'),
  'POST /admin/maintenance/prune': r('instance.prune', null),
  'POST /admin/data-retention-policy-settings': r('instance.data-retention-policy.set', null),
  'PATCH /admin/data-retention-policy-settings': r('instance.data-retention-policy.set', null),
  'DELETE /admin/data-retention-policy-settings': r('instance.data-retention-policy.delete', null),
  'PATCH /admin/general-settings': r('instance.general-settings.update', null),

  'POST /organizations/:org/teams': r('team.create', 'organizations', true, 'teams'),
  'PATCH /teams/:id': r('team.update', 'teams'),
  'DELETE /teams/:id': r('team.delete', 'teams'),
  'POST /teams/:id/relationships/users': r('team.members.add', 'teams'),
  'DELETE /teams/:id/relationships/users': r('team.members.remove', 'teams'),
  'POST /teams/:id/relationships/organization-memberships': r('team.members.add', 'teams'),
  'DELETE /teams/:id/relationships/organization-memberships': r('team.members.remove', 'teams'),
  'POST /organizations/:org/organization-memberships': r('organization-membership.create', 'organizations', true),
  'DELETE /organization-memberships/:id': r('organization-membership.delete', 'organization-memberships'),
  'POST /organization-memberships/:id/actions/accept': r('organization-membership.accept', 'organization-memberships'),
  'POST /teams/:id/authentication-token': r('team-token.create', 'teams', true),
  'POST /teams/:id/authentication-tokens': r('team-token.create', 'teams', true),
  'DELETE /teams/:id/authentication-token': r('team-token.delete', 'teams'),
  'POST /team-projects': r('team-project.create', null, true),
  'PATCH /team-projects/:id': r('team-project.update', 'team-projects'),
  'DELETE /team-projects/:id': r('team-project.delete', 'team-projects'),
  'POST /team-workspaces': r('team-workspace.create', null, true),
  'PATCH /team-workspaces/:id': r('team-workspace.update', 'team-workspaces'),
  'DELETE /team-workspaces/:id': r('team-workspace.delete', 'team-workspaces'),

  'POST /organizations/:org/agent-pools': r('agent-pool.create', 'organizations', true, 'agent-pools'),
  'PATCH /agent-pools/:id': r('agent-pool.update', 'agent-pools'),
  'DELETE /agent-pools/:id': r('agent-pool.delete', 'agent-pools'),
  'POST /agent-pools/:id/authentication-tokens': r('agent-token.create', 'agent-pools', true, 'authentication-tokens'),
  'DELETE /agents/:id': r('agent.delete', 'agents'),
  'DELETE /organizations/:org/tags': r('organization.tags.delete', 'organizations'),
  'POST /tags/:id/relationships/workspaces': r('tag.workspaces.add', 'tags'),
  'POST /organizations/:org/reserved-tag-keys': r(
    'reserved-tag-key.create',
    'organizations',
    true,
    'reserved-tag-keys',
  ),
  'PATCH /reserved-tag-keys/:id': r('reserved-tag-key.update', 'reserved-tag-keys'),
  'DELETE /reserved-tag-keys/:id': r('reserved-tag-key.delete', 'reserved-tag-keys'),
  'PATCH /reserved-tags/:id': r('reserved-tag-key.update', 'reserved-tag-keys'),
  'DELETE /reserved-tags/:id': r('reserved-tag-key.delete', 'reserved-tag-keys'),
  'POST /organizations/:org/oauth-tokens': r('oauth-token.create', 'organizations', true, 'oauth-tokens'),
  // The private provider registry (routes/registry/provider-routes.ts). Its signed file uploads,
  // GPG keys and mirror pushes are under /api/registry, outside the trail (docs/api.md).
  'POST /organizations/:org/registry-providers': r('registry-provider.create', 'organizations', true),
  'DELETE /organizations/:org/registry-providers/:registry/:namespace/:name': r(
    'registry-provider.delete',
    'organizations',
  ),
  'POST /organizations/:org/registry-providers/:registry/:namespace/:name/versions': r(
    'registry-provider-version.create',
    'organizations',
    true,
  ),
  'DELETE /organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version': r(
    'registry-provider-version.delete',
    'organizations',
  ),
  'POST /organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version/platforms': r(
    'registry-provider-platform.create',
    'organizations',
    true,
  ),
  'DELETE /organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version/platforms/:os/:arch': r(
    'registry-provider-platform.delete',
    'organizations',
  ),
  'POST /workspaces/:id/notification-configurations': r(
    'notification-configuration.create',
    'workspaces',
    true,
    'notification-configurations',
  ),
  'POST /teams/:id/notification-configurations': r(
    'notification-configuration.create',
    'teams',
    true,
    'notification-configurations',
  ),
  'PATCH /notification-configurations/:id': r('notification-configuration.update', 'notification-configurations'),
  'DELETE /notification-configurations/:id': r('notification-configuration.delete', 'notification-configurations'),
  'POST /notification-configurations/:id/actions/verify': keeping(
    r('notification-configuration.verify', 'notification-configurations'),
  ),
  'POST /organizations/:org/ssh-keys': r('ssh-key.create', 'organizations', true, 'ssh-keys'),
  'PATCH /ssh-keys/:id': r('ssh-key.update', 'ssh-keys'),
  'DELETE /ssh-keys/:id': r('ssh-key.delete', 'ssh-keys'),

  // The private module registry (routes/registry/modules.ts), with go-tfe's legacy paths.
  'POST /organizations/:org/registry-modules': r('registry-module.create', 'organizations', true, 'registry-modules'),
  'PATCH /organizations/:org/registry-modules/:registry/:namespace/:name/:provider': r(
    'registry-module.update',
    'organizations',
  ),
  'DELETE /organizations/:org/registry-modules/:registry/:namespace/:name': r(
    'registry-module.delete',
    'organizations',
  ),
  'DELETE /organizations/:org/registry-modules/:registry/:namespace/:name/:provider': r(
    'registry-module.delete-provider',
    'organizations',
  ),
  'DELETE /organizations/:org/registry-modules/:registry/:namespace/:name/:provider/:version': r(
    'registry-module-version.delete',
    'organizations',
  ),
  'POST /organizations/:org/registry-modules/:registry/:namespace/:name/:provider/versions': r(
    'registry-module-version.create',
    'organizations',
    true,
    'registry-module-versions',
  ),
  'POST /registry-modules/:org/:name/:provider/versions': r(
    'registry-module-version.create',
    'organizations',
    true,
    'registry-module-versions',
  ),
  'POST /registry-modules/actions/delete/:org/:name': r('registry-module.delete', 'organizations'),
  'POST /registry-modules/actions/delete/:org/:name/:provider': r('registry-module.delete-provider', 'organizations'),
  'POST /registry-modules/actions/delete/:org/:name/:provider/:version': r(
    'registry-module-version.delete',
    'organizations',
  ),
  'PUT /registry-module-versions/:id/object/module.tar.gz': r(
    'registry-module-version.upload',
    'registry-module-versions',
  ),

  'POST /organizations/:org/workspaces': keeping(r('workspace.create', 'organizations', true, 'workspaces')),
  'PATCH /workspaces/:id': r('workspace.update', 'workspaces'),
  'DELETE /workspaces/:id': r('workspace.force-delete', 'workspaces'),
  'POST /workspaces/:id/actions/safe-delete': r('workspace.safe-delete', 'workspaces'),
  'POST /workspaces/:id/actions/lock': keeping(r('workspace.lock', 'workspaces')),
  'POST /workspaces/:id/actions/unlock': keeping(r('workspace.unlock', 'workspaces')),
  'POST /workspaces/:id/actions/force-unlock': keeping(r('workspace.force-unlock', 'workspaces')),
  'PATCH /workspaces/:id/relationships/ssh-key': keeping(r('workspace.ssh-key.update', 'workspaces')),
  'POST /workspaces/:id/relationships/remote-state-consumers': keeping(
    r('workspace.remote-state-consumers.add', 'workspaces'),
  ),
  'DELETE /workspaces/:id/relationships/remote-state-consumers': keeping(
    r('workspace.remote-state-consumers.remove', 'workspaces'),
  ),
  'PATCH /workspaces/:id/relationships/remote-state-consumers': keeping(
    r('workspace.remote-state-consumers.replace', 'workspaces'),
  ),
  // A run trigger is recorded on the workspace whose runs it queues (its target).
  'POST /workspaces/:id/run-triggers': r('run-trigger.create', 'workspaces', true, 'run-triggers'),
  'DELETE /run-triggers/:id': r('run-trigger.delete', 'run-triggers'),
  'POST /workspaces/:id/relationships/tags': keeping(r('workspace.tags.add', 'workspaces')),
  'DELETE /workspaces/:id/relationships/tags': keeping(r('workspace.tags.remove', 'workspaces')),
  'PATCH /workspaces/:id/tag-bindings': keeping(r('workspace.tag-bindings.add', 'workspaces')),
  'POST /workspaces/:id/relationships/tag-bindings': keeping(r('workspace.tag-bindings.add', 'workspaces')),
  'PATCH /workspaces/:id/relationships/tag-bindings': keeping(r('workspace.tag-bindings.replace', 'workspaces')),
  'POST /workspaces/:id/relationships/data-retention-policy': r('workspace.data-retention-policy.set', 'workspaces'),
  'PATCH /workspaces/:id/relationships/data-retention-policy': r('workspace.data-retention-policy.set', 'workspaces'),
  'DELETE /workspaces/:id/relationships/data-retention-policy': r(
    'workspace.data-retention-policy.delete',
    'workspaces',
  ),

  'POST /workspaces/:id/vars': keeping(r('variable.create', 'workspaces', true, 'vars')),
  'PATCH /workspaces/:workspace_id/vars/:id': r('variable.update', 'vars'),
  'DELETE /workspaces/:workspace_id/vars/:id': r('variable.delete', 'vars'),
  'POST /vars': r('variable.create', null, true, 'vars'),
  'PATCH /vars/:id': r('variable.update', 'vars'),
  'DELETE /vars/:id': r('variable.delete', 'vars'),

  'POST /workspaces/:id/state-versions': r('state-version.create', 'workspaces', true),
  // Named from inside its transaction: the new version (whose audit name says what it rolled back to).
  'PATCH /workspaces/:id/state-versions': r('state-version.rollback', 'workspaces', true, 'state-versions'),
  'PUT /state-versions/:id/content': r('state-version.upload', 'state-versions'),
  'PUT /state-versions/:id/json-content': r('state-version.upload', 'state-versions'),
  'POST /state-versions/:id/actions/soft_delete_backing_data': r(
    'state-version.backing-data.soft-delete',
    'state-versions',
  ),
  'POST /state-versions/:id/actions/restore_backing_data': r('state-version.backing-data.restore', 'state-versions'),
  'POST /state-versions/:id/actions/permanently_delete_backing_data': r(
    'state-version.backing-data.permanently-delete',
    'state-versions',
  ),
  'POST /runs': r('run.create', null, true),
  'POST /runs/:id/actions/apply': r('run.apply', 'runs'),
  'POST /runs/:id/actions/discard': r('run.discard', 'runs'),
  'POST /runs/:id/actions/cancel': r('run.cancel', 'runs'),
  'POST /runs/:id/actions/report': r('run.report', 'runs'),
  'POST /runs/:id/actions/force-cancel': r('run.force-cancel', 'runs'),
  'POST /runs/:id/actions/force-execute': r('run.force-execute', 'runs'),
  'POST /runs/:id/comments': r('run.comment', 'runs'),
  'POST /workspaces/:id/configuration-versions': r('configuration-version.create', 'workspaces', true),
  'PUT /configuration-versions/:id/upload': r('configuration-version.upload', 'configuration-versions'),
  'POST /configuration-versions/:id/actions/archive': r('configuration-version.archive', 'configuration-versions'),
  'POST /configuration-versions/:id/actions/soft_delete_backing_data': r(
    'configuration-version.backing-data.soft-delete',
    'configuration-versions',
  ),
  'POST /configuration-versions/:id/actions/restore_backing_data': r(
    'configuration-version.backing-data.restore',
    'configuration-versions',
  ),
  'POST /configuration-versions/:id/actions/permanently_delete_backing_data': r(
    'configuration-version.backing-data.permanently-delete',
    'configuration-versions',
  ),
};

const PREFIX = '/api/v2';
const BY_NAME = '/organizations/:org/workspaces/:name';

/** The entry of a route pattern (as hono registered it, with the /api/v2 prefix), if any. */
export function auditRouteOf(method: string, pattern: string): AuditRoute | undefined {
  if (!pattern.startsWith(`${PREFIX}/`)) return undefined;
  let path = pattern.slice(PREFIX.length);
  if (path.startsWith(BY_NAME)) path = `/workspaces/:id${path.slice(BY_NAME.length)}`;
  return AUDIT_ROUTES[`${method} ${path}`];
}

/** The `:name` parameters of `pattern` in the request's path (segments percent-decoded). */
export function paramsOf(pattern: string, pathname: string): Record<string, string> {
  const keys = pattern.split('/');
  const values = pathname.split('/');
  const out: Record<string, string> = {};
  keys.forEach((k, i) => {
    if (!k.startsWith(':') || values[i] === undefined) return;
    try {
      out[k.slice(1)] = decodeURIComponent(values[i]);
    } catch {
      out[k.slice(1)] = values[i]!;
    }
  });
  return out;
}

/** What the transaction of a create route declaring `returns` made, from its result. */
export function returnedSubjectOf(route: AuditRoute, result: unknown): SubjectRef | null {
  if (!route.returns || result === null || typeof result !== 'object') return null;
  const id = (result as { id?: unknown }).id;
  return typeof id === 'string' ? { type: route.returns, id } : null;
}

/** The subject a route's path names, from its parameters. */
export function pathSubjectOf(route: AuditRoute, params: Record<string, string>): SubjectRef | null {
  if (!route.subject) return null;
  if (route.subject === 'organizations') return { type: 'organizations', name: params.org ?? params.name ?? '' };
  if (route.subject === 'workspaces' && params.id === undefined)
    return { type: 'workspaces', organization: params.org ?? '', name: params.name ?? '' };
  return { type: route.subject, id: params.id ?? '' };
}
