import { REGISTRY_SEED, type SeededOrg } from './seed.js';

/**
 * For every route of the app: the request organization B sends at organization A's resources (a
 * well-formed body, so that only the tenant boundary can refuse it), and what must come back.
 * `404`: A's resource does not exist for B. `own`: the route is not about A's resources (lists
 * and creations of B's own, public routes); it must answer without anything of A. The test fails
 * when a route of the app is missing here, so a new route cannot be forgotten.
 */
export interface IsolationCase {
  expect: 404 | 'own';
  body?: (a: SeededOrg, b: SeededOrg) => unknown;
  query?: (a: SeededOrg) => string;
  /** The path's parameters, when not A's real values (a signed path: A's id with B's signature). */
  params?: (a: SeededOrg, b: SeededOrg) => string[];
}

const ws =
  (attributes: Record<string, unknown> = {}) =>
  () => ({ data: { type: 'workspaces', attributes } });
const bindings = (a: SeededOrg) => ({
  data: [{ type: 'tag-bindings', attributes: { key: a.bindingKey, value: 'changed' } }],
});
const workspaceIds = (a: SeededOrg) => ({ data: [{ type: 'workspaces', id: a.consumerId }] });
const flatTags = (a: SeededOrg) => ({ data: [{ type: 'tags', attributes: { name: a.tagName } }] });
const policy = () => ({
  data: { type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': 3 } },
});
const report = () => ({ data: { type: 'run-reports', attributes: { status: 'planning' } } });
const none = undefined;
const notification = (triggers = ['run:created']) => ({
  data: {
    type: 'notification-configurations',
    attributes: {
      'destination-type': 'generic',
      enabled: false,
      name: 'intruder',
      url: 'http://127.0.0.1:9/x',
      triggers,
    },
  },
});
const variable = () => ({ data: { type: 'vars', attributes: { key: 'intruder', value: 'x', category: 'terraform' } } });
const varset = () => ({ data: { type: 'varsets', attributes: { name: 'renamed' } } });
const ownWorkspace = (_a: SeededOrg, b: SeededOrg) => ({ data: [{ type: 'workspaces', id: b.workspaceId }] });
const ownProject = (_a: SeededOrg, b: SeededOrg) => ({ data: [{ type: 'projects', id: b.projectId }] });
/** A well-formed `terraform login` request (test/api/identity/terraform-login.test.ts covers the flow). */
const loginRequest = (type: string) => ({
  data: {
    type,
    attributes: {
      'client-id': 'terraform-cli',
      'redirect-uri': 'http://localhost:10000/login',
      'response-type': 'code',
      'code-challenge': 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      'code-challenge-method': 'S256',
      state: 'abc',
    },
  },
});

const { moduleVersion, providerVersion, mirrorVersion, os, arch } = REGISTRY_SEED;
/** The path parameters of A's registry module, provider, its version and platform, and A's mirror package. */
const moduleAt = (a: SeededOrg) => [a.org, 'private', a.org, a.moduleName, a.moduleProvider];
const providerAt = (a: SeededOrg) => [a.org, 'private', a.org, a.providerName];
const mirrorAt = (a: SeededOrg, file: string) => [a.org, a.mirrorHostname, a.mirrorNamespace, a.mirrorType, file];
const moduleVersionBody = () => ({ data: { type: 'registry-module-versions', attributes: { version: '9.9.9' } } });

/** The registry (issue 44): A's modules, GPG keys, providers, their files, the protocols and A's mirror. */
const REGISTRY_CASES: Record<string, IsolationCase> = {
  // A version's archive at its signed URLs (no token: the signature is the credential). A's own
  // signatures, each for another purpose of the same version, open nothing: the download's does
  // not upload (else a 409: the version is uploaded), the upload's does not download (else A's
  // archive). test/api/registry/signed-url-isolation.test.ts tries B's signatures on A's ids.
  'PUT /api/v2/registry-module-versions/:id/object/module.tar.gz': {
    expect: 404,
    params: (a) => [a.moduleVersionId],
    query: (a) => `?${a.moduleDownloadQuery}`,
  },
  'GET /api/v2/registry-module-versions/:id/object/module.tar.gz': {
    expect: 404,
    params: (a) => [a.moduleVersionId],
    query: (a) => `?${a.moduleUploadQuery}`,
  },
  'POST /api/v2/organizations/:org/registry-modules': {
    expect: 404,
    params: (a) => [a.org],
    body: () => ({ data: { type: 'registry-modules', attributes: { name: 'intruder', provider: 'intruder' } } }),
  },
  'GET /api/v2/organizations/:org/registry-modules': { expect: 404, params: (a) => [a.org] },
  'GET /api/v2/registry-modules/:id': { expect: 404, params: (a) => [a.moduleId] },
  'GET /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider': {
    expect: 404,
    params: moduleAt,
  },
  'PATCH /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider': {
    expect: 404,
    params: moduleAt,
    body: () => ({ data: { type: 'registry-modules', attributes: { 'no-code': true } } }),
  },
  'POST /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider/versions': {
    expect: 404,
    params: moduleAt,
    body: moduleVersionBody,
  },
  'GET /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider/version': {
    expect: 404,
    params: moduleAt,
    query: () => `?module_version=${moduleVersion}`,
  },
  'DELETE /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider/:version': {
    expect: 404,
    params: (a) => [...moduleAt(a), moduleVersion],
  },
  'DELETE /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name/:provider': {
    expect: 404,
    params: moduleAt,
  },
  'DELETE /api/v2/organizations/:org/registry-modules/:registry/:namespace/:name': {
    expect: 404,
    params: (a) => moduleAt(a).slice(0, 4),
  },
  // go-tfe's legacy paths: private modules of :org.
  'POST /api/v2/registry-modules/actions/delete/:org/:name': { expect: 404, params: (a) => [a.org, a.moduleName] },
  'POST /api/v2/registry-modules/actions/delete/:org/:name/:provider': {
    expect: 404,
    params: (a) => [a.org, a.moduleName, a.moduleProvider],
  },
  'POST /api/v2/registry-modules/actions/delete/:org/:name/:provider/:version': {
    expect: 404,
    params: (a) => [a.org, a.moduleName, a.moduleProvider, moduleVersion],
  },
  'POST /api/v2/registry-modules/:org/:name/:provider/versions': {
    expect: 404,
    params: (a) => [a.org, a.moduleName, a.moduleProvider],
    body: moduleVersionBody,
  },
  // Providers, their versions and platforms.
  'GET /api/v2/organizations/:org/registry-providers': {
    expect: 404,
    params: (a) => [a.org],
    query: () => '?include=registry_provider_versions',
  },
  'POST /api/v2/organizations/:org/registry-providers': {
    expect: 404,
    params: (a) => [a.org],
    body: (a) => ({
      data: {
        type: 'registry-providers',
        attributes: { name: 'intruder', namespace: a.org, 'registry-name': 'private' },
      },
    }),
  },
  'GET /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name': { expect: 404, params: providerAt },
  'DELETE /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name': {
    expect: 404,
    params: providerAt,
  },
  'GET /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name/versions': {
    expect: 404,
    params: providerAt,
  },
  'POST /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name/versions': {
    expect: 404,
    params: providerAt,
    body: (a) => ({
      data: {
        type: 'registry-provider-versions',
        attributes: { version: '9.9.9', 'key-id': a.gpgKeyKeyId, protocols: ['5.0'] },
      },
    }),
  },
  'GET /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version': {
    expect: 404,
    params: (a) => [...providerAt(a), providerVersion],
  },
  'DELETE /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version': {
    expect: 404,
    params: (a) => [...providerAt(a), providerVersion],
  },
  'GET /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version/platforms': {
    expect: 404,
    params: (a) => [...providerAt(a), providerVersion],
  },
  'POST /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version/platforms': {
    expect: 404,
    params: (a) => [...providerAt(a), providerVersion],
    body: () => ({
      data: {
        type: 'registry-provider-platforms',
        attributes: { os: 'intruder', arch: 'amd64', shasum: '0'.repeat(64), filename: 'intruder.zip' },
      },
    }),
  },
  'GET /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version/platforms/:os/:arch':
    { expect: 404, params: (a) => [...providerAt(a), providerVersion, os, arch] },
  'DELETE /api/v2/organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version/platforms/:os/:arch':
    { expect: 404, params: (a) => [...providerAt(a), providerVersion, os, arch] },
  // The module registry protocol: the namespace is the organization.
  'GET /api/registry/v1/modules/:namespace/:name/:provider/versions': {
    expect: 404,
    params: (a) => [a.org, a.moduleName, a.moduleProvider],
  },
  'GET /api/registry/v1/modules/:namespace/:name/:provider/:version/download': {
    expect: 404,
    params: (a) => [a.org, a.moduleName, a.moduleProvider, moduleVersion],
  },
  // The provider files at their signed URLs (no token). A's signatures of the same version for
  // another file, or of another archive of A's, open nothing (else a 409 on the uploads, A's bytes
  // on the downloads).
  'PUT /api/registry/files/provider-versions/:id/shasums': {
    expect: 404,
    params: (a) => [a.providerVersionId],
    query: (a) => `?${a.shasumsDownloadQuery}`,
  },
  'GET /api/registry/files/provider-versions/:id/shasums': {
    expect: 404,
    params: (a) => [a.providerVersionId],
    query: (a) => `?${a.shasumsSigDownloadQuery}`,
  },
  'PUT /api/registry/files/provider-versions/:id/shasums-sig': {
    expect: 404,
    params: (a) => [a.providerVersionId],
    query: (a) => `?${a.shasumsSigDownloadQuery}`,
  },
  'GET /api/registry/files/provider-versions/:id/shasums-sig': {
    expect: 404,
    params: (a) => [a.providerVersionId],
    query: (a) => `?${a.shasumsDownloadQuery}`,
  },
  'PUT /api/registry/files/provider-platforms/:id/binary': {
    expect: 404,
    params: (a) => [a.providerPlatformId],
    query: (a) => `?${a.archiveDownloadQuery}`,
  },
  'GET /api/registry/files/archives/:id/:filename': {
    expect: 404,
    params: (a) => [a.providerArchiveId, a.providerFilename],
    query: (a) => `?${a.mirrorDownloadQuery}`,
  },
  // GPG keys: A's namespace; B's own key added to it, A's key moved into B's namespace.
  'GET /api/registry/private/v2/gpg-keys': { expect: 404, query: (a) => `?filter[namespace]=${a.org}` },
  'POST /api/registry/private/v2/gpg-keys': {
    expect: 404,
    body: (a, b) => ({ data: { type: 'gpg-keys', attributes: { namespace: a.org, 'ascii-armor': b.gpgAsciiArmor } } }),
  },
  'GET /api/registry/private/v2/gpg-keys/:namespace/:keyId': { expect: 404, params: (a) => [a.org, a.gpgKeyKeyId] },
  'PATCH /api/registry/private/v2/gpg-keys/:namespace/:keyId': {
    expect: 404,
    params: (a) => [a.org, a.gpgKeyKeyId],
    body: (_a, b) => ({ data: { type: 'gpg-keys', attributes: { namespace: b.org } } }),
  },
  'DELETE /api/registry/private/v2/gpg-keys/:namespace/:keyId': { expect: 404, params: (a) => [a.org, a.gpgKeyKeyId] },
  // The provider registry protocol: the namespace is the organization.
  'GET /api/registry/v1/providers/:namespace/:type/versions': { expect: 404, params: (a) => [a.org, a.providerName] },
  'GET /api/registry/v1/providers/:namespace/:type/:version/download/:os/:arch': {
    expect: 404,
    params: (a) => [a.org, a.providerName, providerVersion, os, arch],
  },
  // A's mirror: its VERSION.json (signed archive URLs), a push into it, a delete of A's package.
  'GET /api/registry/mirror/:org/:hostname/:namespace/:type/:file': {
    expect: 404,
    params: (a) => mirrorAt(a, `${mirrorVersion}.json`),
  },
  'PUT /api/registry/mirror/:org/:hostname/:namespace/:type/:file': {
    expect: 404,
    params: (a) => mirrorAt(a, a.mirrorFilename),
    body: () => 'PK intruder',
  },
  'DELETE /api/registry/mirror/:org/:hostname/:namespace/:type/:file': {
    expect: 404,
    params: (a) => mirrorAt(a, a.mirrorFilename),
  },
  // What A's mirror holds (berth's own list, for `berth registry mirror list`).
  'GET /api/v2/organizations/:org/mirror-packages': {
    expect: 404,
    params: (a) => [a.org],
    query: (a) => `?filter[hostname]=${a.mirrorHostname}`,
  },
};

/** The routes of one workspace, by id and by organization and name alike. */
function workspaceRoutes(base: string): Record<string, IsolationCase> {
  return {
    [`GET ${base}`]: { expect: 404 },
    [`PATCH ${base}`]: { expect: 404, body: ws({ description: 'taken over' }) },
    [`DELETE ${base}`]: { expect: 404 },
    [`POST ${base}/actions/safe-delete`]: { expect: 404 },
    [`PATCH ${base}/relationships/ssh-key`]: {
      expect: 404,
      body: (a) => ({ data: { type: 'workspaces', attributes: { id: a.sshKeyId } } }),
    },
    [`GET ${base}/relationships/remote-state-consumers`]: { expect: 404 },
    [`POST ${base}/relationships/remote-state-consumers`]: { expect: 404, body: workspaceIds },
    [`DELETE ${base}/relationships/remote-state-consumers`]: { expect: 404, body: workspaceIds },
    [`PATCH ${base}/relationships/remote-state-consumers`]: { expect: 404, body: workspaceIds },
    [`GET ${base}/relationships/tags`]: { expect: 404 },
    [`POST ${base}/relationships/tags`]: { expect: 404, body: flatTags },
    [`DELETE ${base}/relationships/tags`]: { expect: 404, body: flatTags },
    [`GET ${base}/tag-bindings`]: { expect: 404 },
    [`PATCH ${base}/tag-bindings`]: { expect: 404, body: bindings },
    [`GET ${base}/effective-tag-bindings`]: { expect: 404 },
    [`GET ${base}/relationships/tag-bindings`]: { expect: 404 },
    [`POST ${base}/relationships/tag-bindings`]: { expect: 404, body: bindings },
    [`PATCH ${base}/relationships/tag-bindings`]: { expect: 404, body: bindings },
    [`GET ${base}/relationships/data-retention-policy`]: { expect: 404 },
    [`POST ${base}/relationships/data-retention-policy`]: { expect: 404, body: policy },
    [`PATCH ${base}/relationships/data-retention-policy`]: { expect: 404, body: policy },
    [`DELETE ${base}/relationships/data-retention-policy`]: { expect: 404 },
  };
}

export const ISOLATION_CASES: Record<string, IsolationCase> = {
  'GET /.well-known/terraform.json': { expect: 'own' },
  'GET /healthz': { expect: 'own' },
  'GET /readyz': { expect: 'own' },
  'GET /api/v2/ping': { expect: 'own' },
  'PUT /api/v2/state-versions/:id/content': {
    expect: 404,
    body: () => ({ version: 4, serial: 9, lineage: 'x', outputs: {}, resources: [] }),
  },
  'GET /api/v2/state-versions/:id/content': { expect: 404 },
  'PUT /api/v2/state-versions/:id/json-content': { expect: 404, body: () => ({ format_version: '1.0' }) },
  'GET /api/v2/state-versions/:id/json-content': { expect: 404 },
  'GET /api/v2/organizations': { expect: 'own' },
  'POST /api/v2/organizations': {
    expect: 'own',
    body: (_a, b) => ({
      data: { type: 'organizations', attributes: { name: `${b.org}-second`, email: 'b@example.com' } },
    }),
  },
  'GET /api/v2/organizations/:name': { expect: 404 },
  'PATCH /api/v2/organizations/:name': {
    expect: 404,
    body: () => ({ data: { type: 'organizations', attributes: { email: 'taken@example.com' } } }),
  },
  'DELETE /api/v2/organizations/:name': { expect: 404 },
  'POST /api/v2/organizations/:org/projects': {
    expect: 404,
    body: () => ({ data: { type: 'projects', attributes: { name: 'intruder' } } }),
  },
  'GET /api/v2/organizations/:org/projects': { expect: 404 },
  'GET /api/v2/organizations/:org/audit-trail': { expect: 404 },
  'GET /api/v2/projects/:id': { expect: 404 },
  'PATCH /api/v2/projects/:id': {
    expect: 404,
    body: () => ({ data: { type: 'projects', attributes: { description: 'taken over' } } }),
  },
  'DELETE /api/v2/projects/:id': { expect: 404 },
  'GET /api/v2/projects/:id/tag-bindings': { expect: 404 },
  'PATCH /api/v2/projects/:id/tag-bindings': { expect: 404, body: bindings },
  'GET /api/v2/projects/:id/effective-tag-bindings': { expect: 404 },
  'GET /api/v2/projects/:id/relationships/tag-bindings': { expect: 404 },
  'POST /api/v2/projects/:id/relationships/tag-bindings': { expect: 404, body: bindings },
  'PATCH /api/v2/projects/:id/relationships/tag-bindings': { expect: 404, body: bindings },
  'POST /api/v2/projects/:id/relationships/workspaces': { expect: 404, body: workspaceIds },
  // Site administration: B is no site administrator; A's user is not B's to see or delete.
  'GET /api/v2/admin/users': { expect: 'own' },
  'POST /api/v2/admin/users': {
    expect: 'own',
    body: () => ({ data: { type: 'users', attributes: { username: 'intruder', email: 'i@example.com' } } }),
  },
  'DELETE /api/v2/admin/users/:id': { expect: 404 },
  'POST /api/v2/admin/authentication-tokens': { expect: 'own', body: none },
  'POST /api/v2/admin/maintenance/prune': { expect: 'own' },
  // The preview of a prune: the same answer (B is no site administrator), nothing of A.
  'GET /api/v2/admin/maintenance/prune': { expect: 'own' },
  // The site-wide retention default is no organization's: B, no site administrator, gets 404.
  'GET /api/v2/admin/data-retention-policy-settings': { expect: 404 },
  'POST /api/v2/admin/data-retention-policy-settings': { expect: 404, body: policy },
  'PATCH /api/v2/admin/data-retention-policy-settings': { expect: 404, body: policy },
  'DELETE /api/v2/admin/data-retention-policy-settings': { expect: 404 },
  'GET /api/v2/users/:id': { expect: 404 },
  'POST /api/v2/users/:id/authentication-tokens': { expect: 404, body: none },
  'GET /api/v2/users/:id/authentication-tokens': { expect: 404 },
  'GET /api/v2/authentication-tokens/:id': { expect: 404 },
  'DELETE /api/v2/authentication-tokens/:id': { expect: 404 },
  'GET /api/v2/account/details': { expect: 'own' },
  'PATCH /api/v2/account/update': { expect: 'own', body: () => ({ data: { type: 'users', attributes: {} } }) },
  'GET /api/v2/organizations/:org/organization-memberships': { expect: 404 },
  'POST /api/v2/organizations/:org/organization-memberships': {
    expect: 404,
    body: () => ({ data: { type: 'organization-memberships', attributes: { email: 'intruder@example.com' } } }),
  },
  'GET /api/v2/organization-memberships': { expect: 'own' },
  'GET /api/v2/organization-memberships/:id': { expect: 404 },
  'DELETE /api/v2/organization-memberships/:id': { expect: 404 },
  'POST /api/v2/organization-memberships/:id/actions/accept': { expect: 404 },
  'POST /api/v2/teams/:id/relationships/organization-memberships': {
    expect: 404,
    body: (_a, b) => ({ data: [{ type: 'organization-memberships', id: b.membershipId }] }),
  },
  'DELETE /api/v2/teams/:id/relationships/organization-memberships': {
    expect: 404,
    body: (a) => ({ data: [{ type: 'organization-memberships', id: a.membershipId }] }),
  },
  'GET /api/v2/whoami': { expect: 'own' },
  // The console's sign-in links are the caller's own (team and organization tokens get 403); a
  // sign-in trades a code, which names no organization (an unknown one is 404).
  'POST /api/v2/console/sign-in-links': { expect: 'own' },
  'POST /api/v2/console/sign-ins': {
    expect: 'own',
    body: () => ({ data: { type: 'console-sign-ins', attributes: { code: 'A'.repeat(43) } } }),
  },
  // terraform login: an approval or a denial is the caller's own (team and organization tokens get
  // 403) and names no organization; the authorization page and the token endpoint take no token.
  'GET /terraform-login/authorize': { expect: 'own' },
  'POST /api/v2/terraform-login/token': { expect: 'own' },
  'POST /api/v2/terraform-login/approvals': { expect: 'own', body: () => loginRequest('terraform-login-approvals') },
  'POST /api/v2/terraform-login/denials': { expect: 'own', body: () => loginRequest('terraform-login-denials') },
  // Instance settings: site administrators only; nobody of B is one.
  'GET /api/v2/admin/general-settings': { expect: 404 },
  'PATCH /api/v2/admin/general-settings': {
    expect: 404,
    body: () => ({ data: { type: 'general-settings', attributes: { 'default-remote-state-access': true } } }),
  },
  'GET /api/v2/organizations/:org/teams': { expect: 404 },
  'POST /api/v2/organizations/:org/teams': {
    expect: 404,
    body: () => ({ data: { type: 'teams', attributes: { name: 'intruders' } } }),
  },
  'GET /api/v2/teams/:id': { expect: 404 },
  'PATCH /api/v2/teams/:id': {
    expect: 404,
    body: () => ({ data: { type: 'teams', attributes: { name: 'renamed' } } }),
  },
  'DELETE /api/v2/teams/:id': { expect: 404 },
  'POST /api/v2/teams/:id/relationships/users': {
    expect: 404,
    body: (_a, b) => ({ data: [{ type: 'users', id: b.ownerUsername }] }),
  },
  'DELETE /api/v2/teams/:id/relationships/users': {
    expect: 404,
    body: (a) => ({ data: [{ type: 'users', id: a.memberUsername }] }),
  },
  'POST /api/v2/teams/:id/authentication-token': { expect: 404 },
  'DELETE /api/v2/teams/:id/authentication-token': { expect: 404 },
  'GET /api/v2/teams/:id/authentication-token': { expect: 404 },
  'POST /api/v2/teams/:id/authentication-tokens': {
    expect: 404,
    body: () => ({ data: { type: 'authentication-tokens', attributes: { description: 'taken over' } } }),
  },
  'GET /api/v2/teams/:id/authentication-tokens': { expect: 404 },
  'GET /api/v2/organizations/:org/team-tokens': { expect: 404 },
  'GET /api/v2/team-projects': { expect: 404, query: (a) => `?filter[project][id]=${a.projectId}` },
  'POST /api/v2/team-projects': {
    expect: 404,
    body: (a, b) => ({
      data: {
        type: 'team-projects',
        attributes: { access: 'admin' },
        relationships: {
          team: { data: { type: 'teams', id: b.teamId } },
          project: { data: { type: 'projects', id: a.projectId } },
        },
      },
    }),
  },
  'GET /api/v2/team-projects/:id': { expect: 404 },
  'PATCH /api/v2/team-projects/:id': {
    expect: 404,
    body: () => ({ data: { type: 'team-projects', attributes: { access: 'admin' } } }),
  },
  'DELETE /api/v2/team-projects/:id': { expect: 404 },
  'GET /api/v2/team-workspaces': { expect: 404, query: (a) => `?filter[workspace][id]=${a.workspaceId}` },
  'POST /api/v2/team-workspaces': {
    expect: 404,
    body: (a, b) => ({
      data: {
        type: 'team-workspaces',
        attributes: { access: 'admin' },
        relationships: {
          team: { data: { type: 'teams', id: b.teamId } },
          workspace: { data: { type: 'workspaces', id: a.workspaceId } },
        },
      },
    }),
  },
  'GET /api/v2/team-workspaces/:id': { expect: 404 },
  'PATCH /api/v2/team-workspaces/:id': {
    expect: 404,
    body: () => ({ data: { type: 'team-workspaces', attributes: { access: 'admin' } } }),
  },
  'DELETE /api/v2/team-workspaces/:id': { expect: 404 },
  'POST /api/v2/organizations/:org/authentication-token': { expect: 404 },
  'DELETE /api/v2/organizations/:org/authentication-token': { expect: 404 },
  'GET /api/v2/organizations/:org/authentication-token': { expect: 404 },
  'POST /api/v2/organizations/:org/workspaces': { expect: 404, body: ws({ name: 'intruder' }) },
  'GET /api/v2/organizations/:org/workspaces': { expect: 404 },
  ...workspaceRoutes('/api/v2/workspaces/:id'),
  ...workspaceRoutes('/api/v2/organizations/:org/workspaces/:name'),
  'POST /api/v2/organizations/:org/agent-pools': {
    expect: 404,
    body: () => ({ data: { type: 'agent-pools', attributes: { name: 'intruder' } } }),
  },
  'GET /api/v2/organizations/:org/agent-pools': { expect: 404 },
  'GET /api/v2/agent-pools/:id': { expect: 404 },
  'PATCH /api/v2/agent-pools/:id': {
    expect: 404,
    body: (a) => ({
      data: {
        type: 'agent-pools',
        attributes: { name: 'renamed', 'organization-scoped': false },
        relationships: { 'allowed-workspaces': { data: [{ type: 'workspaces', id: a.workspaceId }] } },
      },
    }),
  },
  'DELETE /api/v2/agent-pools/:id': { expect: 404 },
  'GET /api/v2/organizations/:name/entitlement-set': { expect: 404 },
  'DELETE /api/v2/organizations/:org/tags': { expect: 404, body: (a) => ({ data: [{ type: 'tags', id: a.tagId }] }) },
  'POST /api/v2/tags/:id/relationships/workspaces': {
    expect: 404,
    body: (a) => ({ data: [{ type: 'workspaces', id: a.workspaceId }] }),
  },
  'GET /api/v2/organizations/:org/reserved-tag-keys': { expect: 404 },
  'POST /api/v2/organizations/:org/reserved-tag-keys': {
    expect: 404,
    body: () => ({ data: { type: 'reserved-tag-keys', attributes: { key: 'intruder' } } }),
  },
  ...Object.fromEntries(
    ['/api/v2/reserved-tag-keys/:id', '/api/v2/reserved-tags/:id'].flatMap((base) => [
      [
        `PATCH ${base}`,
        { expect: 404, body: () => ({ data: { type: 'reserved-tag-keys', attributes: { key: 'taken-over' } } }) },
      ],
      [`DELETE ${base}`, { expect: 404 }],
    ]),
  ),
  'POST /api/v2/organizations/:org/oauth-tokens': {
    expect: 404,
    body: () => ({ data: { type: 'oauth-tokens', attributes: { 'service-provider': 'github' } } }),
  },
  'GET /api/v2/organizations/:org/oauth-tokens': { expect: 404 },
  'GET /api/v2/oauth-tokens/:id': { expect: 404 },
  'POST /api/v2/workspaces/:id/actions/lock': { expect: 404, body: () => ({ reason: 'intruder' }) },
  'POST /api/v2/workspaces/:id/actions/unlock': { expect: 404 },
  'POST /api/v2/workspaces/:id/actions/force-unlock': { expect: 404 },
  'POST /api/v2/workspaces/:id/state-versions': {
    expect: 404,
    body: () => ({ data: { type: 'state-versions', attributes: { serial: 99, md5: '0'.repeat(32) } } }),
  },
  'PATCH /api/v2/workspaces/:id/state-versions': {
    expect: 404,
    body: (a) => ({
      data: {
        type: 'state-versions',
        relationships: { 'rollback-state-version': { data: { type: 'state-versions', id: a.stateVersionId } } },
      },
    }),
  },
  'GET /api/v2/workspaces/:id/state-versions': { expect: 404 },
  'GET /api/v2/workspaces/:id/current-state-version': { expect: 404 },
  'GET /api/v2/state-versions/:id': { expect: 404 },
  'GET /api/v2/state-versions': {
    expect: 404,
    query: (a) => `?filter[organization][name]=${a.org}&filter[workspace][name]=${a.workspaceName}`,
  },
  'POST /api/v2/state-versions/:id/actions/soft_delete_backing_data': { expect: 404 },
  'POST /api/v2/state-versions/:id/actions/restore_backing_data': { expect: 404 },
  'POST /api/v2/state-versions/:id/actions/permanently_delete_backing_data': { expect: 404 },
  'GET /api/v2/state-versions/:id/outputs': { expect: 404 },
  'GET /api/v2/state-version-outputs/:id': { expect: 404 },
  'GET /api/v2/workspaces/:id/current-state-version-outputs': { expect: 404 },
  'GET /api/v2/workspaces/:id/resources': { expect: 404 },
  'POST /api/v2/runs': {
    expect: 404,
    body: (a) => ({
      data: {
        type: 'runs',
        attributes: { message: 'intruder' },
        relationships: { workspace: { data: { type: 'workspaces', id: a.workspaceId } } },
      },
    }),
  },
  'GET /api/v2/runs/:id': { expect: 404 },
  'GET /api/v2/workspaces/:id/runs': { expect: 404 },
  'POST /api/v2/runs/:id/actions/apply': { expect: 404 },
  'POST /api/v2/runs/:id/actions/discard': { expect: 404 },
  'POST /api/v2/runs/:id/actions/cancel': { expect: 404 },
  'POST /api/v2/runs/:id/actions/report': { expect: 404, body: report },
  // Runs berth executes: their configuration versions, plans, applies, logs and actions.
  'POST /api/v2/runs/:id/actions/force-cancel': { expect: 404 },
  'POST /api/v2/runs/:id/actions/force-execute': { expect: 404 },
  'GET /api/v2/runs/:id/run-events': { expect: 404 },
  'GET /api/v2/run-events/:id': { expect: 404 },
  // Comments on runs (A's recorded run and its comment).
  'GET /api/v2/runs/:id/comments': { expect: 404 },
  'POST /api/v2/runs/:id/comments': {
    expect: 404,
    body: () => ({ data: { type: 'comments', attributes: { body: 'intruder' } } }),
  },
  'GET /api/v2/comments/:id': { expect: 404 },
  'GET /api/v2/organizations/:name/runs/queue': { expect: 404 },
  'GET /api/v2/organizations/:name/capacity': { expect: 404 },
  'GET /api/v2/organizations/:name/runs': { expect: 404 },
  // Task stages: A's run has none, and no id names one.
  'GET /api/v2/runs/:id/task-stages': { expect: 404 },
  'GET /api/v2/task-stages/:id': { expect: 404 },
  'POST /api/v2/workspaces/:id/configuration-versions': {
    expect: 404,
    body: () => ({ data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': true } } }),
  },
  'GET /api/v2/workspaces/:id/configuration-versions': { expect: 404 },
  'GET /api/v2/configuration-versions/:id': { expect: 404 },
  'GET /api/v2/configuration-versions/:id/download': { expect: 404 },
  // The upload URL's signature is its credential: without one (B has none for A's version), 404.
  'PUT /api/v2/configuration-versions/:id/upload': { expect: 404 },
  'POST /api/v2/configuration-versions/:id/actions/archive': { expect: 404 },
  'POST /api/v2/configuration-versions/:id/actions/soft_delete_backing_data': { expect: 404 },
  'POST /api/v2/configuration-versions/:id/actions/restore_backing_data': { expect: 404 },
  'POST /api/v2/configuration-versions/:id/actions/permanently_delete_backing_data': { expect: 404 },
  'GET /api/v2/plans/:id': { expect: 404 },
  'GET /api/v2/plans/:id/json-output': { expect: 404 },
  'GET /api/v2/plans/:id/json-output-redacted': { expect: 404 },
  'GET /api/v2/applies/:id': { expect: 404 },
  // B's own signed log path does not open A's plan's log.
  'GET /api/v2/run-logs/:phase/:expires/:signature': {
    expect: 404,
    params: (a, b) => [a.planId, ...b.planLogPath.split('/')],
  },
  'POST /api/v2/organizations/:org/ssh-keys': {
    expect: 404,
    body: () => ({ data: { type: 'ssh-keys', attributes: { name: 'intruder', value: 'x' } } }),
  },
  'GET /api/v2/organizations/:org/ssh-keys': { expect: 404 },
  'GET /api/v2/ssh-keys/:id': { expect: 404 },
  'PATCH /api/v2/ssh-keys/:id': {
    expect: 404,
    body: () => ({ data: { type: 'ssh-keys', attributes: { name: 'renamed' } } }),
  },
  'DELETE /api/v2/ssh-keys/:id': { expect: 404 },
  // Notification configurations: A's workspace's and team's, and A's configuration by its id.
  'POST /api/v2/workspaces/:id/notification-configurations': { expect: 404, body: () => notification() },
  'GET /api/v2/workspaces/:id/notification-configurations': { expect: 404 },
  'POST /api/v2/teams/:id/notification-configurations': {
    expect: 404,
    body: () => notification(['change_request:created']),
  },
  'GET /api/v2/teams/:id/notification-configurations': { expect: 404 },
  'GET /api/v2/notification-configurations/:id': { expect: 404 },
  'PATCH /api/v2/notification-configurations/:id': { expect: 404, body: () => notification() },
  'DELETE /api/v2/notification-configurations/:id': { expect: 404 },
  'POST /api/v2/notification-configurations/:id/actions/verify': { expect: 404 },
  // Run triggers: B's own workspace as the source of A's, and A's trigger by its id.
  'POST /api/v2/workspaces/:id/run-triggers': {
    expect: 404,
    body: (_a, b) => ({ data: { relationships: { sourceable: { data: { type: 'workspaces', id: b.workspaceId } } } } }),
  },
  'GET /api/v2/workspaces/:id/run-triggers': { expect: 404, query: () => '?filter[run-trigger][type]=inbound' },
  'GET /api/v2/run-triggers/:id': { expect: 404, params: (a) => [a.runTriggerId] },
  'DELETE /api/v2/run-triggers/:id': { expect: 404, params: (a) => [a.runTriggerId] },
  'GET /api/v2/organizations/:org/tags': { expect: 404 },
  'GET /api/v2/organizations/:org/relationships/data-retention-policy': { expect: 404 },
  'POST /api/v2/organizations/:org/relationships/data-retention-policy': { expect: 404, body: policy },
  'PATCH /api/v2/organizations/:org/relationships/data-retention-policy': { expect: 404, body: policy },
  'DELETE /api/v2/organizations/:org/relationships/data-retention-policy': { expect: 404 },
  // Agents (issue 36): tokens and agents of A's pool.
  'POST /api/v2/agent-pools/:id/authentication-tokens': {
    expect: 404,
    body: () => ({ data: { type: 'authentication-tokens', attributes: { description: 'intruder' } } }),
  },
  'GET /api/v2/agent-pools/:id/authentication-tokens': { expect: 404 },
  'GET /api/v2/agent-pools/:id/agents': { expect: 404 },
  'GET /api/v2/agents/:id': { expect: 404 },
  'DELETE /api/v2/agents/:id': { expect: 404 },
  // The agent protocol takes agent tokens only: a person's or team's token is refused (401).
  ...Object.fromEntries(
    [
      'POST /api/agent/register',
      'POST /api/agent/ping',
      'POST /api/agent/claim',
      'GET /api/agent/configuration-versions/:id',
      'POST /api/agent/runs/:id/logs/:phase',
      'POST /api/agent/runs/:id/finish/:phase',
      'GET /api/agent/runs/:id/state',
      'GET /api/agent/runs/:id/variables',
      'PUT /api/agent/runs/:id/state',
      'GET /api/agent/runs/:id/stop',
      'PUT /api/agent/runs/:id/plan',
      'GET /api/agent/runs/:id/plan',
      'PUT /api/agent/runs/:id/plan-json',
      'PUT /api/agent/runs/:id/interrupted-state',
    ].map((k) => [k, { expect: 'own' }]),
  ),
  // Health assessments (hosted edition; a 404 on self-hosted for anyone).
  'GET /api/v2/assessment-results/:id': { expect: 404 },
  'GET /api/v2/workspaces/:id/current-assessment-result': { expect: 404 },
  'GET /api/v2/assessment-results/:id/log-output': { expect: 404 },
  // Workspace variables (issue 35).
  'GET /api/v2/workspaces/:id/vars': { expect: 404 },
  'GET /api/v2/workspaces/:id/all-vars': { expect: 404 },
  'POST /api/v2/workspaces/:id/vars': { expect: 404, body: variable },
  'GET /api/v2/workspaces/:workspace_id/vars/:id': { expect: 404 },
  'PATCH /api/v2/workspaces/:workspace_id/vars/:id': { expect: 404, body: variable },
  'DELETE /api/v2/workspaces/:workspace_id/vars/:id': { expect: 404 },
  'GET /api/v2/vars': {
    expect: 404,
    query: (a) => `?filter%5Borganization%5D%5Bname%5D=${a.org}&filter%5Bworkspace%5D%5Bname%5D=${a.workspaceName}`,
  },
  'POST /api/v2/vars': {
    expect: 404,
    body: (a) => ({
      data: {
        type: 'vars',
        attributes: { key: 'intruder', value: 'x', category: 'terraform' },
        relationships: { workspace: { data: { type: 'workspaces', id: a.workspaceId } } },
      },
    }),
  },
  'PATCH /api/v2/vars/:id': { expect: 404, body: variable },
  'DELETE /api/v2/vars/:id': { expect: 404 },
  // Variable sets (issue 35): A's sets, and B's own workspace put into A's set.
  'POST /api/v2/organizations/:org/varsets': {
    expect: 404,
    body: () => ({ data: { type: 'varsets', attributes: { name: 'intruder' } } }),
  },
  'GET /api/v2/organizations/:org/varsets': { expect: 404 },
  'GET /api/v2/projects/:id/varsets': { expect: 404 },
  'GET /api/v2/workspaces/:id/varsets': { expect: 404 },
  'GET /api/v2/varsets/:id': { expect: 404 },
  'PATCH /api/v2/varsets/:id': { expect: 404, body: varset },
  'PUT /api/v2/varsets/:id': { expect: 404, body: varset },
  'DELETE /api/v2/varsets/:id': { expect: 404 },
  'POST /api/v2/varsets/:id/relationships/workspaces': { expect: 404, body: ownWorkspace },
  'DELETE /api/v2/varsets/:id/relationships/workspaces': { expect: 404, body: ownWorkspace },
  'POST /api/v2/varsets/:id/relationships/projects': { expect: 404, body: ownProject },
  'DELETE /api/v2/varsets/:id/relationships/projects': { expect: 404, body: ownProject },
  'GET /api/v2/varsets/:id/relationships/vars': { expect: 404 },
  'POST /api/v2/varsets/:id/relationships/vars': { expect: 404, body: variable },
  'GET /api/v2/varsets/:id/relationships/vars/:var': { expect: 404 },
  'PATCH /api/v2/varsets/:id/relationships/vars/:var': { expect: 404, body: variable },
  'DELETE /api/v2/varsets/:id/relationships/vars/:var': { expect: 404 },
  ...REGISTRY_CASES,
};
