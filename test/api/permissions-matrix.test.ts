import { afterEach, describe, expect, it } from 'vitest';
import { TestApi, type ApiResponse } from '../helpers/api.js';
import { accessFixture, grantProject, grantWorkspace, teamMember, type AccessFixture } from '../helpers/access.js';

/**
 * The spec's Authentication table, actor by actor. Organization `acme` has projects Alpha and
 * Beta; workspace `web` lives in Alpha. Every cell runs against a fresh database, so each
 * operation sees the same starting state. 401: no or revoked token; 404: may not read it;
 * 403: may read it but not do it (force delete and moves as the spec names; elsewhere berth's
 * choice, see docs/api.md "Permissions").
 */

type Actor =
  | 'site administrator'
  | 'owner'
  | 'manage-projects team'
  | 'manage-workspaces team'
  | 'read-workspaces team'
  | 'project admin'
  | 'project read'
  | 'workspace admin'
  | 'workspace write'
  | 'workspace plan'
  | 'workspace read'
  | 'custom lock-only'
  | 'team token (workspace admin team)'
  | 'organization token'
  | 'other organization token'
  | 'revoked token'
  | 'no token';

type Op =
  | 'create project'
  | 'update project Alpha'
  | 'delete project Beta'
  | 'view workspace'
  | 'change workspace settings'
  | 'lock'
  | 'unlock'
  | 'force-unlock'
  | 'queue run'
  | 'create workspace in Alpha'
  | 'create workspace in Beta'
  | 'safe delete'
  | 'force delete'
  | 'force delete (org allows admins)'
  | 'move workspace Alpha -> Beta'
  | 'replace remote state consumers'
  | 'add remote state consumers';

const OPS: Op[] = [
  'create project',
  'update project Alpha',
  'delete project Beta',
  'view workspace',
  'change workspace settings',
  'lock',
  'unlock',
  'force-unlock',
  'queue run',
  'create workspace in Alpha',
  'create workspace in Beta',
  'safe delete',
  'force delete',
  'force delete (org allows admins)',
  'move workspace Alpha -> Beta',
  'replace remote state consumers',
  'add remote state consumers',
];

// prettier-ignore
const MATRIX: Record<Actor, number[]> = {
  //                          create  upd   del   view  settings lock unlock force  run   ws in  ws in  safe  force force   move
  //                          prj     Alpha Beta  ws    ws            unlock        Alpha  Beta   del   del   allowed        consumers
  //                                                                                                                        replace add
  // (The consumer added is in project Beta: a project admin of Alpha or a workspace admin cannot read it,
  // and an unreadable consumer is refused as an unknown one, 422.)
  'site administrator':       [201,   200,  204,  200,  200,     200, 200,  200,   201,  201,   201,   204,  204,  204,    204, 204,  204],
  'owner':                    [201,   200,  204,  200,  200,     200, 200,  200,   201,  201,   201,   204,  204,  204,    204, 204,  204],
  'manage-projects team':     [201,   200,  204,  200,  200,     200, 200,  200,   201,  201,   201,   204,  403,  204,    204, 403,  204],
  'manage-workspaces team':   [403,   403,  403,  200,  200,     200, 200,  200,   201,  201,   201,   204,  403,  204,    404, 204,  204],
  'read-workspaces team':     [403,   404,  404,  200,  403,     403, 403,  403,   403,  403,   403,   404,  403,  403,    404, 403,  403],
  'project admin':            [403,   200,  404,  200,  200,     200, 200,  200,   201,  201,   422,   204,  403,  204,    404, 403,  422],
  'project read':             [403,   403,  404,  200,  403,     403, 403,  403,   403,  403,   403,   404,  403,  403,    404, 403,  403],
  'workspace admin':          [403,   404,  404,  200,  200,     200, 200,  200,   201,  403,   403,   204,  403,  204,    404, 403,  422],
  'workspace write':          [403,   404,  404,  200,  403,     200, 200,  403,   201,  403,   403,   404,  403,  403,    404, 403,  403],
  'workspace plan':           [403,   404,  404,  200,  403,     403, 403,  403,   201,  403,   403,   404,  403,  403,    404, 403,  403],
  'workspace read':           [403,   404,  404,  200,  403,     403, 403,  403,   403,  403,   403,   404,  403,  403,    404, 403,  403],
  'custom lock-only':         [403,   404,  404,  200,  403,     200, 200,  403,   403,  403,   403,   404,  403,  403,    404, 403,  403],
  'team token (workspace admin team)': [403, 404, 404, 200, 200, 200, 200,  200,   201,  403,   403,   204,  403,  204,    404, 403,  422],
  'organization token':       [201,   200,  204,  200,  200,     200, 200,  200,   201,  201,   201,   204,  204,  204,    204, 204,  204],
  'other organization token': [404,   404,  404,  404,  404,     404, 404,  404,   404,  404,   404,   404,  404,  404,    404, 404,  404],
  'revoked token':            [401,   401,  401,  401,  401,     401, 401,  401,   401,  401,   401,   401,  401,  401,    401, 401,  401],
  'no token':                 [401,   401,  401,  401,  401,     401, 401,  401,   401,  401,   401,   401,  401,  401,    401, 401,  401],
};

/** Sets up the actor in the fixture and returns its token (null: no Authorization header). */
async function actorToken(f: AccessFixture, actor: Actor): Promise<string | null> {
  const { api } = f;
  switch (actor) {
    case 'site administrator':
      return api.adminToken;
    case 'owner':
      return f.owner.token;
    case 'read-workspaces team':
      return (await teamMember(f, 'rw', { 'read-workspaces': true })).token;
    case 'team token (workspace admin team)': {
      const m = await teamMember(f, 'wadmin-token');
      await grantWorkspace(f, m.teamId, f.web, 'admin');
      const res = await api.post(`/api/v2/teams/${m.teamId}/authentication-token`, undefined, { token: f.owner.token });
      expect(res.status, res.text).toBe(201);
      return res.body.data.attributes.token;
    }
    case 'manage-projects team':
      return (await teamMember(f, 'mp', { 'manage-projects': true })).token;
    case 'manage-workspaces team':
      return (await teamMember(f, 'mw', { 'manage-workspaces': true })).token;
    case 'project admin': {
      const m = await teamMember(f, 'pa');
      await grantProject(f, m.teamId, f.alpha, 'admin');
      return m.token;
    }
    case 'project read': {
      const m = await teamMember(f, 'pr');
      await grantProject(f, m.teamId, f.alpha, 'read');
      return m.token;
    }
    case 'workspace admin':
    case 'workspace write':
    case 'workspace plan':
    case 'workspace read': {
      const level = actor.split(' ')[1];
      const m = await teamMember(f, `w${level}`);
      await grantWorkspace(f, m.teamId, f.web, level);
      return m.token;
    }
    case 'custom lock-only': {
      const m = await teamMember(f, 'locker');
      await grantWorkspace(f, m.teamId, f.web, 'custom', { 'workspace-locking': true });
      return m.token;
    }
    case 'organization token': {
      const res = await api.post('/api/v2/organizations/acme/authentication-token', undefined, {
        token: f.owner.token,
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data.attributes.token;
    }
    case 'other organization token': {
      const stranger = await api.userToken('stranger');
      expect((await api.createOrg('other', stranger.token)).status).toBe(201);
      const res = await api.post('/api/v2/organizations/other/authentication-token', undefined, {
        token: stranger.token,
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data.attributes.token;
    }
    case 'revoked token': {
      // An owner's token, revoked: it was all-powerful a moment ago.
      const res = await api.post(`/api/v2/users/${f.owner.userId}/authentication-tokens`, undefined);
      expect(res.status, res.text).toBe(201);
      expect((await api.delete(`/api/v2/authentication-tokens/${res.body.data.id}`)).status).toBe(204);
      return res.body.data.attributes.token;
    }
    case 'no token':
      return null;
  }
}

const wsCreate = (name: string, projectId: string) => ({
  data: {
    type: 'workspaces',
    attributes: { name },
    relationships: { project: { data: { type: 'projects', id: projectId } } },
  },
});

async function perform(f: AccessFixture, op: Op, token: string | null): Promise<ApiResponse> {
  const { api, web } = f;
  const as = { token };
  const ownerLocks = async () =>
    expect((await api.post(`/api/v2/workspaces/${web}/actions/lock`, {}, { token: f.owner.token })).status).toBe(200);
  switch (op) {
    case 'create project':
      return api.post(
        '/api/v2/organizations/acme/projects',
        { data: { type: 'projects', attributes: { name: 'Gamma' } } },
        as,
      );
    case 'update project Alpha':
      return api.patch(
        `/api/v2/projects/${f.alpha}`,
        { data: { type: 'projects', attributes: { description: 'changed' } } },
        as,
      );
    case 'delete project Beta':
      return api.delete(`/api/v2/projects/${f.beta}`, as);
    case 'view workspace':
      return api.get(`/api/v2/workspaces/${web}`, as);
    case 'change workspace settings':
      return api.patch(
        `/api/v2/workspaces/${web}`,
        { data: { type: 'workspaces', attributes: { description: 'changed' } } },
        as,
      );
    case 'lock':
      return api.post(`/api/v2/workspaces/${web}/actions/lock`, { reason: 'matrix' }, as);
    case 'unlock': {
      // The actor unlocks its own lock; one who may not lock finds the owner's lock instead.
      const locked = await api.post(`/api/v2/workspaces/${web}/actions/lock`, {}, as);
      if (locked.status !== 200) await ownerLocks();
      return api.post(`/api/v2/workspaces/${web}/actions/unlock`, undefined, as);
    }
    case 'force-unlock':
      await ownerLocks();
      return api.post(`/api/v2/workspaces/${web}/actions/force-unlock`, undefined, as);
    case 'queue run':
      return api.post(
        '/api/v2/runs',
        {
          data: {
            type: 'runs',
            attributes: {},
            relationships: { workspace: { data: { type: 'workspaces', id: web } } },
          },
        },
        as,
      );
    case 'create workspace in Alpha':
      return api.post('/api/v2/organizations/acme/workspaces', wsCreate('fresh', f.alpha), as);
    case 'create workspace in Beta':
      return api.post('/api/v2/organizations/acme/workspaces', wsCreate('fresh', f.beta), as);
    case 'safe delete':
      return api.post(`/api/v2/workspaces/${web}/actions/safe-delete`, undefined, as);
    case 'force delete':
      return api.delete(`/api/v2/workspaces/${web}`, as);
    case 'force delete (org allows admins)': {
      const on = await api.patch(
        '/api/v2/organizations/acme',
        { data: { type: 'organizations', attributes: { 'allow-force-delete-workspaces': true } } },
        { token: f.owner.token },
      );
      expect(on.status, on.text).toBe(200);
      return api.delete(`/api/v2/workspaces/${web}`, as);
    }
    case 'move workspace Alpha -> Beta':
      return api.post(
        `/api/v2/projects/${f.beta}/relationships/workspaces`,
        { data: [{ type: 'workspaces', id: web }] },
        as,
      );
    case 'replace remote state consumers':
    case 'add remote state consumers': {
      const other = await api.post('/api/v2/organizations/acme/workspaces', wsCreate('reader', f.beta), {
        token: f.owner.token,
      });
      expect(other.status, other.text).toBe(201);
      const body = { data: [{ type: 'workspaces', id: other.body.data.id }] };
      const path = `/api/v2/workspaces/${web}/relationships/remote-state-consumers`;
      return op === 'replace remote state consumers' ? api.patch(path, body, as) : api.post(path, body, as);
    }
  }
}

const CASES = (Object.keys(MATRIX) as Actor[]).flatMap((actor) =>
  OPS.map((op, i) => ({ actor, op, status: MATRIX[actor][i] })),
);

describe('permission matrix (spec: Authentication)', () => {
  let api: TestApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('has one expected status for every actor and operation', () => {
    for (const row of Object.values(MATRIX)) expect(row).toHaveLength(OPS.length);
  });

  it.each(CASES)('$actor: $op -> $status', async ({ actor, op, status }) => {
    api = await TestApi.create();
    const f = await accessFixture(api);
    const token = await actorToken(f, actor);
    const res = await perform(f, op, token);
    expect(res.status, `${actor} / ${op}: ${res.text}`).toBe(status);
  });
});
