import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { auditRouteOf } from '../../../src/api/audit-actions.js';
import { createApp } from '../../../src/api/app.js';
import { openStore } from '../../../src/store/open.js';
import { DEFAULT_SETTINGS } from '../../../src/services/context.js';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { finishPhase } from '../../../src/services/runs/run-phases.js';
import { PLANNED_CHANGES } from '../../helpers/run-execution.js';
import { gzipSync } from 'node:zlib';
import { TestApi, type ApiResponse } from '../../helpers/api.js';
import { approvedConsumersOnly } from '../../helpers/remote-state.js';
import {
  accessFixture,
  teamBody,
  teamProjectBody,
  teamWorkspaceBody,
  type AccessFixture,
} from '../../helpers/access.js';
import { goTfeAssignSshKey, goTfeDeleteOlder, goTfeTagsByName } from '../../fixtures/go-tfe.js';
import { throwawayKey } from '../../helpers/provider-package.js';
import { addKey } from '../registry/provider-helpers.js';

/**
 * Every mutating route of the app leaves exactly one audit record when it succeeds, carrying the
 * route's action and the response's request id. The route list comes from the app itself, so a
 * route added later without a case here (or without an entry in audit-actions.ts) fails.
 */

const P = '/api/v2';
const state = readFileSync(new URL('../../fixtures/state-small.json', import.meta.url));
const parsed = JSON.parse(state.toString());
const svAttributes = {
  serial: parsed.serial,
  lineage: parsed.lineage,
  md5: createHash('md5').update(state).digest('hex'),
};
const bindings = { data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'prod' } }] };
const named = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });
const wsList = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'workspaces', id })) });
const sourceable = (id: string) => ({
  data: { type: 'run-triggers', relationships: { sourceable: { data: { type: 'workspaces', id } } } },
});

/** A disabled notification configuration (generic: to a loopback URL nothing is sent to). */
const hook = (type = 'generic', triggers = ['run:created']) =>
  named('notification-configurations', {
    'destination-type': type,
    enabled: false,
    name: 'hook',
    ...(type === 'email' ? {} : { url: 'http://127.0.0.1:9/hook' }),
    triggers,
  });

interface Scene extends AccessFixture {
  /** Runs the request under test: it must succeed and add exactly one record. */
  act: (request: () => Promise<ApiResponse>) => Promise<ApiResponse>;
}

/** Setup helpers (their own records are made before `act` counts). */
const PROVIDER = `${P}/organizations/acme/registry-providers/private/acme/standin`;
const providerKey = throwawayKey();
const newProvider = (s: Scene) =>
  s.api.post(
    `${P}/organizations/acme/registry-providers`,
    named('registry-providers', { name: 'standin', namespace: 'acme', 'registry-name': 'private' }),
  );
const newProviderVersion = (s: Scene) =>
  s.api.post(
    `${PROVIDER}/versions`,
    named('registry-provider-versions', { version: '1.0.0', 'key-id': providerKey.keyId, protocols: ['5.0'] }),
  );
const newProviderPlatform = (s: Scene) =>
  s.api.post(
    `${PROVIDER}/versions/1.0.0/platforms`,
    named('registry-provider-platforms', { os: 'linux', arch: 'amd64', shasum: '0'.repeat(64), filename: 'p.zip' }),
  );
const ok = async (res: Promise<ApiResponse>): Promise<any> => {
  const r = await res;
  expect(r.status, r.text).toBeLessThan(300);
  return r.body?.data;
};
const newTeam = (s: Scene, name = 'devs') => ok(s.api.post(`${P}/organizations/acme/teams`, teamBody(name)));
const newWorkspace = (s: Scene, name: string) =>
  ok(s.api.post(`${P}/organizations/acme/workspaces`, named('workspaces', { name })));
const lock = (s: Scene) => ok(s.api.post(`${P}/workspaces/${s.web}/actions/lock`, {}));
const runBody = (s: Scene) => ({
  data: { type: 'runs', attributes: {}, relationships: { workspace: { data: { type: 'workspaces', id: s.web } } } },
});
const newRun = (s: Scene) => ok(s.api.post(`${P}/runs`, runBody(s)));
const newVariable = (s: Scene) =>
  ok(s.api.post(`${P}/workspaces/${s.web}/vars`, named('vars', { key: 'k', category: 'terraform' })));
/** A finalized state version that is no longer current (two pushed under one lock, then unlocked). */
const releasedVersion = async (s: Scene): Promise<string> => {
  await lock(s);
  const inline = named('state-versions', { ...svAttributes, state: state.toString('base64') });
  const first = await ok(s.api.post(`${P}/workspaces/${s.web}/state-versions`, inline));
  await ok(s.api.post(`${P}/workspaces/${s.web}/state-versions`, inline));
  await ok(s.api.post(`${P}/workspaces/${s.web}/actions/unlock`));
  return first.id;
};
const report = (s: Scene, id: string, status: string) =>
  ok(s.api.post(`${P}/runs/${id}/actions/report`, named('run-reports', { status })));

/** A configuration version of `web` (the instance executes runs), uploaded unless told otherwise. */
const newConfiguration = async (s: Scene, upload = true, autoQueueRuns = false) => {
  const cv = await ok(
    s.api.post(
      `${P}/workspaces/${s.web}/configuration-versions`,
      named('configuration-versions', { 'auto-queue-runs': autoQueueRuns }),
    ),
  );
  if (upload) expect((await uploadTo(s, cv.attributes['upload-url'])).status).toBe(200);
  return cv;
};
/** PUTs a configuration archive to its signed upload URL (no token: the URL is the credential). */
const uploadTo = async (s: Scene, uploadUrl: string): Promise<ApiResponse> => {
  const url = new URL(uploadUrl);
  const res = await s.api.app.fetch(
    new Request(`http://berth.test${url.pathname}${url.search}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: gzipSync(Buffer.from('terraform {}')),
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, text };
};
/** Routes whose case needs an instance that executes runs (berth serve --execute-runs). */
const EXECUTING = new Set([
  'POST /api/v2/workspaces/:id/configuration-versions',
  'PUT /api/v2/configuration-versions/:id/upload',
  'POST /api/v2/runs/:id/actions/force-cancel',
  'POST /api/v2/runs/:id/actions/force-execute',
]);

/** A `terraform login` request with a fixed PKCE pair (test/api/identity/terraform-login.test.ts covers the flow). */
const loginVerifier = 'terraform-login-verifier-of-the-audit-coverage-test';
const loginRequest = {
  'client-id': 'terraform-cli',
  'redirect-uri': 'http://localhost:10001/login',
  'response-type': 'code',
  'code-challenge': createHash('sha256').update(loginVerifier).digest('base64url'),
  'code-challenge-method': 'S256',
  state: 'st',
};

const invite = (email: string) => named('organization-memberships', { email });
const membershipRefs = (id: string) => ({ data: [{ type: 'organization-memberships', id }] });
/** The membership of the organization's creator. */
const ownerMembership = async (s: Scene): Promise<string> =>
  (await ok(s.api.get(`${P}/organizations/acme/organization-memberships?q=owner`)))[0].id;

/** A variable set of `acme`, made before the action a case records. */
const newVarset = (s: Scene) => ok(s.api.post(`${P}/organizations/acme/varsets`, named('varsets', { name: 'set' })));

/** A private module `vpc/aws` of acme, and its version 1.0.0 (pending, with its upload link). */
const MODULE = `${P}/organizations/acme/registry-modules/private/acme/vpc/aws`;
const moduleVersion = named('registry-module-versions', { version: '1.0.0' });
const newModule = (s: Scene) =>
  s.api.post(`${P}/organizations/acme/registry-modules`, named('registry-modules', { name: 'vpc', provider: 'aws' }));
const newModuleVersion = (s: Scene) => s.api.post(`${MODULE}/versions`, moduleVersion);

type Case = (s: Scene, ws: string) => Promise<unknown>;

/** Workspace routes, written once for `/workspaces/:id` and `/organizations/:org/workspaces/:name`. */
const WORKSPACE_CASES: Record<string, Case> = {
  'PATCH ': (s, ws) => s.act(() => s.api.patch(ws, named('workspaces', { description: 'changed' }))),
  'DELETE ': (s, ws) => s.act(() => s.api.delete(ws)),
  'POST /actions/safe-delete': (s, ws) => s.act(() => s.api.post(`${ws}/actions/safe-delete`)),
  'PATCH /relationships/ssh-key': async (s, ws) => {
    const key = await ok(
      s.api.post(`${P}/organizations/acme/ssh-keys`, named('ssh-keys', { name: 'k', value: 'secret' })),
    );
    return s.act(() => s.api.patch(`${ws}/relationships/ssh-key`, goTfeAssignSshKey(key.id)));
  },
  'POST /relationships/remote-state-consumers': async (s, ws) => {
    const other = await newWorkspace(s, 'api');
    return s.act(() => s.api.post(`${ws}/relationships/remote-state-consumers`, wsList(other.id)));
  },
  'DELETE /relationships/remote-state-consumers': async (s, ws) => {
    const other = await newWorkspace(s, 'api');
    await ok(s.api.post(`${ws}/relationships/remote-state-consumers`, wsList(other.id)));
    return s.act(() => s.api.delete(`${ws}/relationships/remote-state-consumers`, { body: wsList(other.id) }));
  },
  'PATCH /relationships/remote-state-consumers': async (s, ws) => {
    const other = await newWorkspace(s, 'api');
    return s.act(() => s.api.patch(`${ws}/relationships/remote-state-consumers`, wsList(other.id)));
  },
  'POST /relationships/tags': (s, ws) => s.act(() => s.api.post(`${ws}/relationships/tags`, goTfeTagsByName('a'))),
  'DELETE /relationships/tags': async (s, ws) => {
    await ok(s.api.post(`${ws}/relationships/tags`, goTfeTagsByName('a')));
    return s.act(() => s.api.delete(`${ws}/relationships/tags`, { body: goTfeTagsByName('a') }));
  },
  'PATCH /tag-bindings': (s, ws) => s.act(() => s.api.patch(`${ws}/tag-bindings`, bindings)),
  'POST /relationships/tag-bindings': (s, ws) => s.act(() => s.api.post(`${ws}/relationships/tag-bindings`, bindings)),
  'PATCH /relationships/tag-bindings': (s, ws) =>
    s.act(() => s.api.patch(`${ws}/relationships/tag-bindings`, bindings)),
  'POST /relationships/data-retention-policy': (s, ws) =>
    s.act(() => s.api.post(`${ws}/relationships/data-retention-policy`, goTfeDeleteOlder(9))),
  'PATCH /relationships/data-retention-policy': (s, ws) =>
    s.act(() => s.api.patch(`${ws}/relationships/data-retention-policy`, goTfeDeleteOlder(9))),
  'DELETE /relationships/data-retention-policy': async (s, ws) => {
    await ok(s.api.post(`${ws}/relationships/data-retention-policy`, goTfeDeleteOlder(9)));
    return s.act(() => s.api.delete(`${ws}/relationships/data-retention-policy`));
  },
};

const CASES: Record<string, Case> = {
  'POST /organizations': (s) => s.act(() => s.api.createOrg('fresh')),
  'PATCH /organizations/:name': (s) =>
    s.act(() => s.api.patch(`${P}/organizations/acme`, named('organizations', { email: 'new@acme.test' }))),
  'DELETE /organizations/:name': async (s) => {
    await ok(s.api.createOrg('doomed'));
    return s.act(() => s.api.delete(`${P}/organizations/doomed`));
  },
  'POST /organizations/:org/relationships/data-retention-policy': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/relationships/data-retention-policy`, goTfeDeleteOlder(30))),
  'PATCH /organizations/:org/relationships/data-retention-policy': (s) =>
    s.act(() => s.api.patch(`${P}/organizations/acme/relationships/data-retention-policy`, goTfeDeleteOlder(30))),
  'DELETE /organizations/:org/relationships/data-retention-policy': async (s) => {
    await ok(s.api.post(`${P}/organizations/acme/relationships/data-retention-policy`, goTfeDeleteOlder(30)));
    return s.act(() => s.api.delete(`${P}/organizations/acme/relationships/data-retention-policy`));
  },
  'POST /organizations/:org/authentication-token': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/authentication-token`)),
  'DELETE /organizations/:org/authentication-token': async (s) => {
    await ok(s.api.post(`${P}/organizations/acme/authentication-token`));
    return s.act(() => s.api.delete(`${P}/organizations/acme/authentication-token`));
  },
  'POST /organizations/:org/projects': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/projects`, named('projects', { name: 'Gamma' }))),
  'PATCH /projects/:id': (s) =>
    s.act(() => s.api.patch(`${P}/projects/${s.alpha}`, named('projects', { description: 'x' }))),
  'DELETE /projects/:id': (s) => s.act(() => s.api.delete(`${P}/projects/${s.beta}`)),
  'PATCH /projects/:id/tag-bindings': (s) =>
    s.act(() => s.api.patch(`${P}/projects/${s.alpha}/tag-bindings`, bindings)),
  'POST /projects/:id/relationships/tag-bindings': (s) =>
    s.act(() => s.api.post(`${P}/projects/${s.alpha}/relationships/tag-bindings`, bindings)),
  'PATCH /projects/:id/relationships/tag-bindings': (s) =>
    s.act(() => s.api.patch(`${P}/projects/${s.alpha}/relationships/tag-bindings`, bindings)),
  'POST /projects/:id/relationships/workspaces': (s) =>
    s.act(() => s.api.post(`${P}/projects/${s.beta}/relationships/workspaces`, wsList(s.web))),
  'POST /organizations/:org/varsets': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/varsets`, named('varsets', { name: 'creds' }))),
  'PATCH /varsets/:id': async (s) => {
    const set = await newVarset(s);
    return s.act(() => s.api.patch(`${P}/varsets/${set.id}`, named('varsets', { description: 'x' })));
  },
  'PUT /varsets/:id': async (s) => {
    const set = await newVarset(s);
    return s.act(() =>
      s.api.request('PUT', `${P}/varsets/${set.id}`, { body: named('varsets', { description: 'x' }) }),
    );
  },
  'DELETE /varsets/:id': async (s) => {
    const set = await newVarset(s);
    return s.act(() => s.api.delete(`${P}/varsets/${set.id}`));
  },
  'POST /varsets/:id/relationships/workspaces': async (s) => {
    const set = await newVarset(s);
    return s.act(() => s.api.post(`${P}/varsets/${set.id}/relationships/workspaces`, wsList(s.web)));
  },
  'DELETE /varsets/:id/relationships/workspaces': async (s) => {
    const set = await newVarset(s);
    return s.act(() => s.api.delete(`${P}/varsets/${set.id}/relationships/workspaces`, { body: wsList(s.web) }));
  },
  'POST /varsets/:id/relationships/projects': async (s) => {
    const set = await newVarset(s);
    const body = { data: [{ type: 'projects', id: s.alpha }] };
    return s.act(() => s.api.post(`${P}/varsets/${set.id}/relationships/projects`, body));
  },
  'DELETE /varsets/:id/relationships/projects': async (s) => {
    const set = await newVarset(s);
    const body = { data: [{ type: 'projects', id: s.alpha }] };
    return s.act(() => s.api.delete(`${P}/varsets/${set.id}/relationships/projects`, { body }));
  },
  'POST /varsets/:id/relationships/vars': async (s) => {
    const set = await newVarset(s);
    const body = named('vars', { key: 'k', value: 'v', category: 'env' });
    return s.act(() => s.api.post(`${P}/varsets/${set.id}/relationships/vars`, body));
  },
  'PATCH /varsets/:id/relationships/vars/:var': async (s) => {
    const set = await newVarset(s);
    const v = await ok(
      s.api.post(`${P}/varsets/${set.id}/relationships/vars`, named('vars', { key: 'k', category: 'env' })),
    );
    const body = named('vars', { value: 'w' });
    return s.act(() => s.api.patch(`${P}/varsets/${set.id}/relationships/vars/${v.id}`, body));
  },
  'DELETE /varsets/:id/relationships/vars/:var': async (s) => {
    const set = await newVarset(s);
    const v = await ok(
      s.api.post(`${P}/varsets/${set.id}/relationships/vars`, named('vars', { key: 'k', category: 'env' })),
    );
    return s.act(() => s.api.delete(`${P}/varsets/${set.id}/relationships/vars/${v.id}`));
  },
  'POST /admin/users': (s) =>
    s.act(() => s.api.post(`${P}/admin/users`, named('users', { username: 'carol', email: 'carol@example.com' }))),
  'DELETE /admin/users/:id': async (s) => {
    const u = await s.api.userToken('carol');
    return s.act(() => s.api.delete(`${P}/admin/users/${u.userId}`));
  },
  'POST /users/:id/authentication-tokens': (s) =>
    s.act(() => s.api.post(`${P}/users/${s.owner.userId}/authentication-tokens`)),
  'POST /admin/authentication-tokens': (s) => s.act(() => s.api.post(`${P}/admin/authentication-tokens`)),
  'DELETE /authentication-tokens/:id': async (s) => {
    const t = await ok(s.api.post(`${P}/users/${s.owner.userId}/authentication-tokens`));
    return s.act(() => s.api.delete(`${P}/authentication-tokens/${t.id}`));
  },
  'POST /admin/maintenance/prune': (s) => s.act(() => s.api.post(`${P}/admin/maintenance/prune`)),
  'POST /admin/data-retention-policy-settings': (s) =>
    s.act(() => s.api.post(`${P}/admin/data-retention-policy-settings`, goTfeDeleteOlder(30))),
  'PATCH /admin/data-retention-policy-settings': (s) =>
    s.act(() => s.api.patch(`${P}/admin/data-retention-policy-settings`, goTfeDeleteOlder(30))),
  'DELETE /admin/data-retention-policy-settings': (s) =>
    s.act(() => s.api.delete(`${P}/admin/data-retention-policy-settings`)),
  'PATCH /admin/general-settings': (s) =>
    s.act(() =>
      s.api.patch(`${P}/admin/general-settings`, named('general-settings', { 'default-remote-state-access': true })),
    ),
  'POST /organizations/:org/teams': (s) => s.act(() => s.api.post(`${P}/organizations/acme/teams`, teamBody('devs'))),
  'PATCH /teams/:id': async (s) => {
    const t = await newTeam(s);
    return s.act(() => s.api.patch(`${P}/teams/${t.id}`, named('teams', { name: 'devs-2' })));
  },
  'DELETE /teams/:id': async (s) => {
    const t = await newTeam(s);
    return s.act(() => s.api.delete(`${P}/teams/${t.id}`));
  },
  'POST /teams/:id/relationships/users': async (s) => {
    const t = await newTeam(s);
    return s.act(() =>
      s.api.post(`${P}/teams/${t.id}/relationships/users`, { data: [{ type: 'users', id: 'owner' }] }),
    );
  },
  'DELETE /teams/:id/relationships/users': async (s) => {
    const t = await newTeam(s);
    await ok(s.api.post(`${P}/teams/${t.id}/relationships/users`, { data: [{ type: 'users', id: 'owner' }] }));
    return s.act(() =>
      s.api.delete(`${P}/teams/${t.id}/relationships/users`, { body: { data: [{ type: 'users', id: 'owner' }] } }),
    );
  },
  'POST /teams/:id/relationships/organization-memberships': async (s) => {
    const t = await newTeam(s);
    const m = await ownerMembership(s);
    return s.act(() => s.api.post(`${P}/teams/${t.id}/relationships/organization-memberships`, membershipRefs(m)));
  },
  'DELETE /teams/:id/relationships/organization-memberships': async (s) => {
    const t = await newTeam(s);
    const m = await ownerMembership(s);
    await ok(s.api.post(`${P}/teams/${t.id}/relationships/organization-memberships`, membershipRefs(m)));
    return s.act(() =>
      s.api.delete(`${P}/teams/${t.id}/relationships/organization-memberships`, { body: membershipRefs(m) }),
    );
  },
  'POST /organizations/:org/organization-memberships': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/organization-memberships`, invite('carol@example.com'))),
  'DELETE /organization-memberships/:id': async (s) => {
    const m = await ok(s.api.post(`${P}/organizations/acme/organization-memberships`, invite('carol@example.com')));
    return s.act(() => s.api.delete(`${P}/organization-memberships/${m.id}`));
  },
  'POST /organization-memberships/:id/actions/accept': async (s) => {
    const carol = await s.api.userToken('carol');
    const m = await ok(s.api.post(`${P}/organizations/acme/organization-memberships`, invite('carol@example.com')));
    return s.act(() =>
      s.api.post(`${P}/organization-memberships/${m.id}/actions/accept`, undefined, { token: carol.token }),
    );
  },
  'POST /console/sign-in-links': (s) => s.act(() => s.api.post(`${P}/console/sign-in-links`)),
  'POST /console/sign-ins': async (s) => {
    const link = await ok(s.api.post(`${P}/console/sign-in-links`));
    return s.act(() =>
      s.api.post(`${P}/console/sign-ins`, named('console-sign-ins', { code: link.attributes.code }), { token: null }),
    );
  },
  'POST /terraform-login/approvals': (s) =>
    s.act(() => s.api.post(`${P}/terraform-login/approvals`, named('terraform-login-approvals', loginRequest))),
  'POST /terraform-login/denials': (s) =>
    s.act(() => s.api.post(`${P}/terraform-login/denials`, named('terraform-login-denials', loginRequest))),
  'POST /terraform-login/token': async (s) => {
    const approval = await ok(
      s.api.post(`${P}/terraform-login/approvals`, named('terraform-login-approvals', loginRequest)),
    );
    const code = new URL(approval.attributes['redirect-to']).searchParams.get('code')!;
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      client_id: 'terraform-cli',
      redirect_uri: loginRequest['redirect-uri'],
      code_verifier: loginVerifier,
    });
    return s.act(() =>
      s.api.request('POST', `${P}/terraform-login/token`, {
        raw: form.toString(),
        token: null,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    );
  },
  'PATCH /account/update': (s) =>
    s.act(() => s.api.patch(`${P}/account/update`, named('users', { email: 'root@example.com' }))),
  'POST /teams/:id/authentication-token': async (s) => {
    const t = await newTeam(s);
    return s.act(() => s.api.post(`${P}/teams/${t.id}/authentication-token`));
  },
  'POST /teams/:id/authentication-tokens': async (s) => {
    const t = await newTeam(s);
    return s.act(() =>
      s.api.post(`${P}/teams/${t.id}/authentication-tokens`, named('authentication-tokens', { description: 'ci' })),
    );
  },
  'DELETE /teams/:id/authentication-token': async (s) => {
    const t = await newTeam(s);
    await ok(s.api.post(`${P}/teams/${t.id}/authentication-token`));
    return s.act(() => s.api.delete(`${P}/teams/${t.id}/authentication-token`));
  },
  'POST /team-projects': async (s) => {
    const t = await newTeam(s);
    return s.act(() => s.api.post(`${P}/team-projects`, teamProjectBody(t.id, s.alpha, { access: 'read' })));
  },
  'PATCH /team-projects/:id': async (s) => {
    const g = await ok(
      s.api.post(`${P}/team-projects`, teamProjectBody((await newTeam(s)).id, s.alpha, { access: 'read' })),
    );
    return s.act(() => s.api.patch(`${P}/team-projects/${g.id}`, named('team-projects', { access: 'write' })));
  },
  'DELETE /team-projects/:id': async (s) => {
    const g = await ok(
      s.api.post(`${P}/team-projects`, teamProjectBody((await newTeam(s)).id, s.alpha, { access: 'read' })),
    );
    return s.act(() => s.api.delete(`${P}/team-projects/${g.id}`));
  },
  'POST /team-workspaces': async (s) => {
    const t = await newTeam(s);
    return s.act(() => s.api.post(`${P}/team-workspaces`, teamWorkspaceBody(t.id, s.web, { access: 'read' })));
  },
  'PATCH /team-workspaces/:id': async (s) => {
    const g = await ok(
      s.api.post(`${P}/team-workspaces`, teamWorkspaceBody((await newTeam(s)).id, s.web, { access: 'read' })),
    );
    return s.act(() => s.api.patch(`${P}/team-workspaces/${g.id}`, named('team-workspaces', { access: 'write' })));
  },
  'DELETE /team-workspaces/:id': async (s) => {
    const g = await ok(
      s.api.post(`${P}/team-workspaces`, teamWorkspaceBody((await newTeam(s)).id, s.web, { access: 'read' })),
    );
    return s.act(() => s.api.delete(`${P}/team-workspaces/${g.id}`));
  },
  'POST /organizations/:org/agent-pools': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/agent-pools`, named('agent-pools', { name: 'b' }))),
  'PATCH /agent-pools/:id': async (s) => {
    const pool = await ok(s.api.post(`${P}/organizations/acme/agent-pools`, named('agent-pools', { name: 'b' })));
    return s.act(() => s.api.patch(`${P}/agent-pools/${pool.id}`, named('agent-pools', { name: 'c' })));
  },
  'DELETE /organizations/:org/tags': async (s) => {
    await ok(
      s.api.post(`${P}/workspaces/${s.web}/relationships/tags`, {
        data: [{ type: 'tags', attributes: { name: 'old' } }],
      }),
    );
    const tag = (await ok(s.api.get(`${P}/organizations/acme/tags`)))[0];
    return s.act(() =>
      s.api.delete(`${P}/organizations/acme/tags`, { body: { data: [{ type: 'tags', id: tag.id }] } }),
    );
  },
  'POST /tags/:id/relationships/workspaces': async (s) => {
    await ok(
      s.api.post(`${P}/workspaces/${s.web}/relationships/tags`, {
        data: [{ type: 'tags', attributes: { name: 'spread' } }],
      }),
    );
    const tag = (await ok(s.api.get(`${P}/organizations/acme/tags`)))[0];
    const other = await newWorkspace(s, 'tagged-too');
    return s.act(() => s.api.post(`${P}/tags/${tag.id}/relationships/workspaces`, wsList(other.id)));
  },
  'POST /organizations/:org/reserved-tag-keys': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/reserved-tag-keys`, named('reserved-tag-keys', { key: 'env' }))),
  'PATCH /reserved-tag-keys/:id': async (s) => {
    const key = await ok(
      s.api.post(`${P}/organizations/acme/reserved-tag-keys`, named('reserved-tag-keys', { key: 'env' })),
    );
    return s.act(() => s.api.patch(`${P}/reserved-tag-keys/${key.id}`, named('reserved-tag-keys', { key: 'stage' })));
  },
  'DELETE /reserved-tag-keys/:id': async (s) => {
    const key = await ok(
      s.api.post(`${P}/organizations/acme/reserved-tag-keys`, named('reserved-tag-keys', { key: 'env' })),
    );
    return s.act(() => s.api.delete(`${P}/reserved-tag-keys/${key.id}`));
  },
  'PATCH /reserved-tags/:id': async (s) => {
    const key = await ok(
      s.api.post(`${P}/organizations/acme/reserved-tag-keys`, named('reserved-tag-keys', { key: 'env' })),
    );
    return s.act(() =>
      s.api.patch(`${P}/reserved-tags/${key.id}`, named('reserved-tag-keys', { 'disable-overrides': true })),
    );
  },
  'DELETE /reserved-tags/:id': async (s) => {
    const key = await ok(
      s.api.post(`${P}/organizations/acme/reserved-tag-keys`, named('reserved-tag-keys', { key: 'env' })),
    );
    return s.act(() => s.api.delete(`${P}/reserved-tags/${key.id}`));
  },
  'POST /agent-pools/:id/authentication-tokens': async (s) => {
    const pool = await ok(s.api.post(`${P}/organizations/acme/agent-pools`, named('agent-pools', { name: 'b' })));
    return s.act(() =>
      s.api.post(
        `${P}/agent-pools/${pool.id}/authentication-tokens`,
        named('authentication-tokens', { description: 'x' }),
      ),
    );
  },
  'DELETE /agent-pools/:id': async (s) => {
    const pool = await ok(s.api.post(`${P}/organizations/acme/agent-pools`, named('agent-pools', { name: 'b' })));
    return s.act(() => s.api.delete(`${P}/agent-pools/${pool.id}`));
  },
  'DELETE /agents/:id': async (s) => {
    // An agent that registered with a token of the pool and exited (the protocol audits both itself).
    const pool = await ok(s.api.post(`${P}/organizations/acme/agent-pools`, named('agent-pools', { name: 'b' })));
    const token = await ok(
      s.api.post(
        `${P}/agent-pools/${pool.id}/authentication-tokens`,
        named('authentication-tokens', { description: 'x' }),
      ),
    );
    const protocol = async (path: string, body: unknown, agent?: string) => {
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token.attributes.token}`,
        'Content-Type': 'application/json',
      };
      if (agent) headers['X-Berth-Agent'] = agent;
      const res = await s.api.app.fetch(
        new Request(`http://berth.test/api/agent${path}`, { method: 'POST', headers, body: JSON.stringify(body) }),
      );
      expect(res.status).toBeLessThan(300);
      return (await res.json()) as { id: string };
    };
    const agent = (await protocol('/register', { name: 'a' })).id;
    await protocol('/ping', { status: 'exited' }, agent);
    return s.act(() => s.api.delete(`${P}/agents/${agent}`));
  },
  'POST /organizations/:org/oauth-tokens': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/oauth-tokens`, named('oauth-tokens', {}))),
  // The private provider registry (test/api/registry/providers.test.ts).
  'POST /organizations/:org/registry-providers': (s) => s.act(() => newProvider(s)),
  'DELETE /organizations/:org/registry-providers/:registry/:namespace/:name': async (s) => {
    await ok(newProvider(s));
    return s.act(() => s.api.delete(PROVIDER));
  },
  'POST /organizations/:org/registry-providers/:registry/:namespace/:name/versions': async (s) => {
    await ok(newProvider(s));
    await addKey(s.api, 'acme', providerKey);
    return s.act(() => newProviderVersion(s));
  },
  'DELETE /organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version': async (s) => {
    await ok(newProvider(s));
    await addKey(s.api, 'acme', providerKey);
    await ok(newProviderVersion(s));
    return s.act(() => s.api.delete(`${PROVIDER}/versions/1.0.0`));
  },
  'POST /organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version/platforms': async (s) => {
    await ok(newProvider(s));
    await addKey(s.api, 'acme', providerKey);
    await ok(newProviderVersion(s));
    return s.act(() => newProviderPlatform(s));
  },
  'DELETE /organizations/:org/registry-providers/:registry/:namespace/:name/versions/:version/platforms/:os/:arch':
    async (s) => {
      await ok(newProvider(s));
      await addKey(s.api, 'acme', providerKey);
      await ok(newProviderVersion(s));
      await ok(newProviderPlatform(s));
      return s.act(() => s.api.delete(`${PROVIDER}/versions/1.0.0/platforms/linux/amd64`));
    },
  'POST /organizations/:org/ssh-keys': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/ssh-keys`, named('ssh-keys', { name: 'k', value: 'secret' }))),
  'PATCH /ssh-keys/:id': async (s) => {
    const key = await ok(
      s.api.post(`${P}/organizations/acme/ssh-keys`, named('ssh-keys', { name: 'k', value: 'secret' })),
    );
    return s.act(() => s.api.patch(`${P}/ssh-keys/${key.id}`, named('ssh-keys', { name: 'k2' })));
  },
  'DELETE /ssh-keys/:id': async (s) => {
    const key = await ok(
      s.api.post(`${P}/organizations/acme/ssh-keys`, named('ssh-keys', { name: 'k', value: 'secret' })),
    );
    return s.act(() => s.api.delete(`${P}/ssh-keys/${key.id}`));
  },
  'POST /workspaces/:id/run-triggers': async (s) => {
    const source = await newWorkspace(s, 'network');
    return s.act(() => s.api.post(`${P}/workspaces/${s.web}/run-triggers`, sourceable(source.id)));
  },
  'POST /workspaces/:id/notification-configurations': (s) =>
    s.act(() => s.api.post(`${P}/workspaces/${s.web}/notification-configurations`, hook())),
  'POST /teams/:id/notification-configurations': async (s) => {
    const team = await ok(s.api.post(`${P}/organizations/acme/teams`, named('teams', { name: 'notified' })));
    return s.act(() =>
      s.api.post(`${P}/teams/${team.id}/notification-configurations`, hook('generic', ['change_request:created'])),
    );
  },
  'PATCH /notification-configurations/:id': async (s) => {
    const nc = await ok(s.api.post(`${P}/workspaces/${s.web}/notification-configurations`, hook()));
    return s.act(() =>
      s.api.patch(
        `${P}/notification-configurations/${nc.id}`,
        named('notification-configurations', { name: 'renamed' }),
      ),
    );
  },
  'DELETE /notification-configurations/:id': async (s) => {
    const nc = await ok(s.api.post(`${P}/workspaces/${s.web}/notification-configurations`, hook()));
    return s.act(() => s.api.delete(`${P}/notification-configurations/${nc.id}`));
  },
  // An email configuration: its verification, without an SMTP server, is recorded as skipped (200).
  'POST /notification-configurations/:id/actions/verify': async (s) => {
    const nc = await ok(s.api.post(`${P}/workspaces/${s.web}/notification-configurations`, hook('email')));
    return s.act(() => s.api.post(`${P}/notification-configurations/${nc.id}/actions/verify`));
  },
  'DELETE /run-triggers/:id': async (s) => {
    const source = await newWorkspace(s, 'network');
    const trigger = await ok(s.api.post(`${P}/workspaces/${s.web}/run-triggers`, sourceable(source.id)));
    return s.act(() => s.api.delete(`${P}/run-triggers/${trigger.id}`));
  },
  // The module registry: `vpc/aws` of acme, and a version of it.
  'POST /organizations/:org/registry-modules': (s) => s.act(() => newModule(s)),
  'PATCH /organizations/:org/registry-modules/:registry/:namespace/:name/:provider': async (s) => {
    await ok(newModule(s));
    return s.act(() => s.api.patch(MODULE, named('registry-modules', { 'no-code': true })));
  },
  'DELETE /organizations/:org/registry-modules/:registry/:namespace/:name': async (s) => {
    await ok(newModule(s));
    return s.act(() => s.api.delete(`${P}/organizations/acme/registry-modules/private/acme/vpc`));
  },
  'DELETE /organizations/:org/registry-modules/:registry/:namespace/:name/:provider': async (s) => {
    await ok(newModule(s));
    return s.act(() => s.api.delete(MODULE));
  },
  'DELETE /organizations/:org/registry-modules/:registry/:namespace/:name/:provider/:version': async (s) => {
    await ok(newModule(s));
    await ok(newModuleVersion(s));
    return s.act(() => s.api.delete(`${MODULE}/1.0.0`));
  },
  'POST /organizations/:org/registry-modules/:registry/:namespace/:name/:provider/versions': async (s) => {
    await ok(newModule(s));
    return s.act(() => newModuleVersion(s));
  },
  'POST /registry-modules/:org/:name/:provider/versions': async (s) => {
    await ok(newModule(s));
    return s.act(() => s.api.post(`${P}/registry-modules/acme/vpc/aws/versions`, moduleVersion));
  },
  'POST /registry-modules/actions/delete/:org/:name': async (s) => {
    await ok(newModule(s));
    return s.act(() => s.api.post(`${P}/registry-modules/actions/delete/acme/vpc`));
  },
  'POST /registry-modules/actions/delete/:org/:name/:provider': async (s) => {
    await ok(newModule(s));
    return s.act(() => s.api.post(`${P}/registry-modules/actions/delete/acme/vpc/aws`));
  },
  'POST /registry-modules/actions/delete/:org/:name/:provider/:version': async (s) => {
    await ok(newModule(s));
    await ok(newModuleVersion(s));
    return s.act(() => s.api.post(`${P}/registry-modules/actions/delete/acme/vpc/aws/1.0.0`));
  },
  'PUT /registry-module-versions/:id/object/module.tar.gz': async (s) => {
    await ok(newModule(s));
    const res = await newModuleVersion(s);
    expect(res.status, res.text).toBe(201);
    return s.act(() => uploadTo(s, res.body.data.links.upload));
  },
  'POST /organizations/:org/workspaces': (s) =>
    s.act(() => s.api.post(`${P}/organizations/acme/workspaces`, named('workspaces', { name: 'fresh' }))),
  'POST /workspaces/:id/actions/lock': (s) => s.act(() => s.api.post(`${P}/workspaces/${s.web}/actions/lock`, {})),
  'POST /workspaces/:id/actions/unlock': async (s) => {
    await lock(s);
    return s.act(() => s.api.post(`${P}/workspaces/${s.web}/actions/unlock`));
  },
  'POST /workspaces/:id/actions/force-unlock': async (s) => {
    await ok(s.api.post(`${P}/workspaces/${s.web}/actions/lock`, {}, { token: s.owner.token }));
    return s.act(() => s.api.post(`${P}/workspaces/${s.web}/actions/force-unlock`));
  },
  'POST /workspaces/:id/state-versions': async (s) => {
    await lock(s);
    return s.act(() =>
      s.api.post(
        `${P}/workspaces/${s.web}/state-versions`,
        named('state-versions', { ...svAttributes, state: state.toString('base64') }),
      ),
    );
  },
  'PATCH /workspaces/:id/state-versions': async (s) => {
    const old = await releasedVersion(s);
    await lock(s);
    const body = {
      data: {
        type: 'state-versions',
        relationships: { 'rollback-state-version': { data: { type: 'state-versions', id: old } } },
      },
    };
    return s.act(() => s.api.patch(`${P}/workspaces/${s.web}/state-versions`, body));
  },
  'PUT /state-versions/:id/content': async (s) => {
    await lock(s);
    const sv = await ok(s.api.post(`${P}/workspaces/${s.web}/state-versions`, named('state-versions', svAttributes)));
    const url = new URL(sv.attributes['hosted-state-upload-url']);
    return s.act(() =>
      s.api.request('PUT', url.pathname + url.search, {
        raw: state.toString(),
        token: null,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
    );
  },
  'PUT /state-versions/:id/json-content': async (s) => {
    await lock(s);
    const sv = await ok(s.api.post(`${P}/workspaces/${s.web}/state-versions`, named('state-versions', svAttributes)));
    const url = new URL(sv.attributes['hosted-json-state-upload-url']);
    return s.act(() =>
      s.api.request('PUT', url.pathname + url.search, {
        raw: '{"format_version":"1.0"}',
        token: null,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
    );
  },
  'POST /state-versions/:id/actions/soft_delete_backing_data': async (s) => {
    const old = await releasedVersion(s);
    return s.act(() => s.api.post(`${P}/state-versions/${old}/actions/soft_delete_backing_data`));
  },
  'POST /state-versions/:id/actions/restore_backing_data': async (s) => {
    const old = await releasedVersion(s);
    await ok(s.api.post(`${P}/state-versions/${old}/actions/soft_delete_backing_data`));
    return s.act(() => s.api.post(`${P}/state-versions/${old}/actions/restore_backing_data`));
  },
  'POST /state-versions/:id/actions/permanently_delete_backing_data': async (s) => {
    const old = await releasedVersion(s);
    await ok(s.api.post(`${P}/state-versions/${old}/actions/soft_delete_backing_data`));
    return s.act(() => s.api.post(`${P}/state-versions/${old}/actions/permanently_delete_backing_data`));
  },
  'POST /runs': (s) => s.act(() => s.api.post(`${P}/runs`, runBody(s))),
  'POST /runs/:id/actions/apply': async (s) => {
    const run = await newRun(s);
    await report(s, run.id, 'planning');
    await report(s, run.id, 'planned');
    return s.act(() => s.api.post(`${P}/runs/${run.id}/actions/apply`));
  },
  'POST /runs/:id/actions/discard': async (s) => {
    const run = await newRun(s);
    await report(s, run.id, 'planning');
    await report(s, run.id, 'planned');
    return s.act(() => s.api.post(`${P}/runs/${run.id}/actions/discard`));
  },
  'POST /runs/:id/actions/cancel': async (s) => {
    const run = await newRun(s);
    return s.act(() => s.api.post(`${P}/runs/${run.id}/actions/cancel`));
  },
  'POST /runs/:id/comments': async (s) => {
    const run = await newRun(s);
    return s.act(() => s.api.post(`${P}/runs/${run.id}/comments`, named('comments', { body: 'looks good' })));
  },
  'POST /workspaces/:id/vars': (s) =>
    s.act(() => s.api.post(`${P}/workspaces/${s.web}/vars`, named('vars', { key: 'k', category: 'terraform' }))),
  'PATCH /workspaces/:workspace_id/vars/:id': async (s) => {
    const v = await newVariable(s);
    return s.act(() => s.api.patch(`${P}/workspaces/${s.web}/vars/${v.id}`, named('vars', { value: 'x' })));
  },
  'DELETE /workspaces/:workspace_id/vars/:id': async (s) => {
    const v = await newVariable(s);
    return s.act(() => s.api.delete(`${P}/workspaces/${s.web}/vars/${v.id}`));
  },
  'POST /vars': (s) =>
    s.act(() =>
      s.api.post(`${P}/vars`, {
        data: {
          type: 'vars',
          attributes: { key: 'k', category: 'env' },
          relationships: { workspace: { data: { type: 'workspaces', id: s.web } } },
        },
      }),
    ),
  'PATCH /vars/:id': async (s) => {
    const v = await newVariable(s);
    return s.act(() => s.api.patch(`${P}/vars/${v.id}`, named('vars', { value: 'x' })));
  },
  'DELETE /vars/:id': async (s) => {
    const v = await newVariable(s);
    return s.act(() => s.api.delete(`${P}/vars/${v.id}`));
  },
  'POST /workspaces/:id/configuration-versions': (s) =>
    s.act(() => s.api.post(`${P}/workspaces/${s.web}/configuration-versions`, named('configuration-versions', {}))),
  // With auto-queue-runs the upload also queues a run: still one record, the upload's.
  'PUT /configuration-versions/:id/upload': async (s) => {
    const cv = await newConfiguration(s, false, true);
    return s.act(() => uploadTo(s, cv.attributes['upload-url']));
  },
  // An older version (the newer one is current): archived, or its backing data moved.
  'POST /configuration-versions/:id/actions/archive': async (s) => {
    const old = await newConfiguration(s);
    await newConfiguration(s);
    return s.act(() => s.api.post(`${P}/configuration-versions/${old.id}/actions/archive`));
  },
  'POST /configuration-versions/:id/actions/soft_delete_backing_data': async (s) => {
    const old = await newConfiguration(s);
    await newConfiguration(s);
    return s.act(() => s.api.post(`${P}/configuration-versions/${old.id}/actions/soft_delete_backing_data`));
  },
  'POST /configuration-versions/:id/actions/restore_backing_data': async (s) => {
    const old = await newConfiguration(s);
    await newConfiguration(s);
    await ok(s.api.post(`${P}/configuration-versions/${old.id}/actions/soft_delete_backing_data`));
    return s.act(() => s.api.post(`${P}/configuration-versions/${old.id}/actions/restore_backing_data`));
  },
  'POST /configuration-versions/:id/actions/permanently_delete_backing_data': async (s) => {
    const old = await newConfiguration(s);
    await newConfiguration(s);
    await ok(s.api.post(`${P}/configuration-versions/${old.id}/actions/soft_delete_backing_data`));
    return s.act(() => s.api.post(`${P}/configuration-versions/${old.id}/actions/permanently_delete_backing_data`));
  },
  'POST /runs/:id/actions/force-cancel': async (s) => {
    await newConfiguration(s);
    const run = await newRun(s);
    // The executor's side claims it (planning); a cancel is asked, then forced.
    expect((await claimRun(s.api.store.db, 'test-executor', new Date().toISOString()))?.runId).toBe(run.id);
    await ok(s.api.post(`${P}/runs/${run.id}/actions/cancel`));
    return s.act(() => s.api.post(`${P}/runs/${run.id}/actions/force-cancel`));
  },
  'POST /runs/:id/actions/force-execute': async (s) => {
    await newConfiguration(s);
    // The first run plans and awaits confirmation, holding the workspace; the second waits behind it.
    const first = await newRun(s);
    expect((await claimRun(s.api.store.db, 'test-executor', new Date().toISOString()))?.runId).toBe(first.id);
    await finishPhase(s.api.store.db, first.id, 'plan', PLANNED_CHANGES, new Date().toISOString());
    const second = await newRun(s);
    return s.act(() => s.api.post(`${P}/runs/${second.id}/actions/force-execute`));
  },
  'POST /runs/:id/actions/report': async (s) => {
    const run = await newRun(s);
    return s.act(() => s.api.post(`${P}/runs/${run.id}/actions/report`, named('run-reports', { status: 'planning' })));
  },
};

for (const [suffix, fn] of Object.entries(WORKSPACE_CASES)) {
  const [method, rest] = suffix.split(' ') as [string, string];
  CASES[`${method} /workspaces/:id${rest}`] = (s) => fn(s, `${P}/workspaces/${s.web}`);
  CASES[`${method} /organizations/:org/workspaces/:name${rest}`] = (s) =>
    fn(s, `${P}/organizations/acme/workspaces/web`);
}

async function mutatingRoutes(): Promise<string[]> {
  const store = await openStore(':memory:');
  const app = createApp({ db: store.db });
  const routes = new Set(
    app.routes
      // The agent protocol (/api/agent) is the agents' own: it audits registrations and exits itself.
      .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && r.path.startsWith(`${P}/`))
      .map((r) => `${r.method} ${r.path}`),
  );
  await store.close();
  return [...routes];
}

const ROUTES = await mutatingRoutes();

describe('audit trail coverage', () => {
  it('knows every mutating route of the app, and has a case for each', () => {
    expect(ROUTES.length).toBeGreaterThan(60);
    for (const key of ROUTES) {
      const [method, path] = key.split(' ') as [string, string];
      expect(auditRouteOf(method, path), key).toBeDefined();
      expect(CASES[`${method} ${path.slice(P.length)}`], key).toBeDefined();
    }
  });

  let api: TestApi | null = null;
  afterEach(async () => {
    await api?.close();
    api = null;
  });

  it.each(ROUTES)('%s leaves exactly one record when it succeeds', async (key) => {
    const [method, path] = key.split(' ') as [string, string];
    api = await TestApi.create(EXECUTING.has(key) ? { settings: { ...DEFAULT_SETTINGS, executesRuns: true } } : {});
    await approvedConsumersOnly(api);
    const f = await accessFixture(api);
    const db = api.store.db;
    const all = () => db.selectFrom('audit_events').selectAll().orderBy('seq').execute();
    let acted = 0;
    const scene: Scene = {
      ...f,
      act: async (request) => {
        acted++;
        const before = await all();
        const res = await request();
        expect(res.status, res.text).toBeLessThan(300);
        const added = (await all()).slice(before.length);
        expect(added.map((e) => e.action)).toEqual([auditRouteOf(method, path)!.action]);
        expect(added[0].request_id).toBe(res.headers.get('x-request-id'));
        expect(added[0].actor_kind).not.toBe('unknown');
        return res;
      },
    };
    await CASES[`${method} ${path.slice(P.length)}`](scene, '');
    expect(acted).toBe(1);
  });
});
