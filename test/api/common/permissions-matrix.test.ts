import { afterEach, describe, expect, it } from 'vitest';
import { TestApi, type ApiResponse } from '../../helpers/api.js';
import { approvedConsumersOnly } from '../../helpers/remote-state.js';
import { accessFixture, grantProject, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';

/**
 * The spec's Authentication table, actor by actor, and every route of issue 20 item 2. Organization
 * `acme` has projects Alpha and Beta; workspace `web` lives in Alpha. Every cell runs against a
 * fresh database, so each operation sees the same starting state. 401: no or revoked token; 404:
 * may not read it, or may read it but not do it ("existence is not distinguished from lack of
 * permission"); 403 only where the spec names it: force delete (of a workspace or a project) and
 * moving workspaces (see docs/api.md "Permissions").
 */

type Actor =
  | 'site administrator'
  | 'owner'
  | 'manage-projects team'
  | 'manage-workspaces team'
  | 'read-workspaces team'
  | 'project admin'
  | 'project maintain'
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
  'manage-projects team':     [201,   200,  204,  200,  200,     200, 200,  200,   201,  201,   201,   204,  403,  204,    204, 404,  204],
  'manage-workspaces team':   [404,   404,  403,  200,  200,     200, 200,  200,   201,  201,   201,   204,  403,  204,    404, 204,  204],
  'read-workspaces team':     [404,   404,  404,  200,  404,     404, 404,  404,   404,  404,   404,   404,  403,  403,    404, 404,  404],
  'project admin':            [404,   200,  404,  200,  200,     200, 200,  200,   201,  201,   422,   204,  403,  204,    404, 404,  422],
  'project maintain':         [404,   404,  404,  200,  200,     200, 200,  200,   201,  201,   422,   204,  403,  204,    404, 404,  422],
  'project read':             [404,   404,  404,  200,  404,     404, 404,  404,   404,  404,   404,   404,  403,  403,    404, 404,  404],
  'workspace admin':          [404,   404,  404,  200,  200,     200, 200,  200,   201,  404,   404,   204,  403,  204,    404, 404,  422],
  'workspace write':          [404,   404,  404,  200,  404,     200, 200,  404,   201,  404,   404,   404,  403,  403,    404, 404,  404],
  'workspace plan':           [404,   404,  404,  200,  404,     404, 404,  404,   201,  404,   404,   404,  403,  403,    404, 404,  404],
  'workspace read':           [404,   404,  404,  200,  404,     404, 404,  404,   404,  404,   404,   404,  403,  403,    404, 404,  404],
  'custom lock-only':         [404,   404,  404,  200,  404,     200, 200,  404,   404,  404,   404,   404,  403,  403,    404, 404,  404],
  'team token (workspace admin team)': [404, 404, 404, 200, 200, 200, 200,  200,   201,  404,   404,   204,  403,  204,    404, 404,  422],
  'organization token':       [201,   200,  204,  200,  200,     200, 200,  200,   201,  201,   201,   204,  204,  204,    204, 204,  204],
  'other organization token': [404,   404,  404,  404,  404,     404, 404,  404,   404,  404,   404,   404,  404,  404,    404, 404,  404],
  'revoked token':            [401,   401,  401,  401,  401,     401, 401,  401,   401,  401,   401,   401,  401,  401,    401, 401,  401],
  'no token':                 [401,   401,  401,  401,  401,     401, 401,  401,   401,  401,   401,   401,  401,  401,    401, 401,  401],
};

/** The other writes of issue 20 item 2: refused with 404 to every caller who may read but not act. */
type RelationOp =
  | 'remove remote state consumers'
  | 'add flat tag'
  | 'remove flat tag'
  | 'assign SSH key'
  | 'change workspace tag bindings'
  | 'set data retention policy'
  | 'delete data retention policy'
  | 'change project Alpha tag bindings';

const RELATION_OPS: RelationOp[] = [
  'remove remote state consumers',
  'add flat tag',
  'remove flat tag',
  'assign SSH key',
  'change workspace tag bindings',
  'set data retention policy',
  'delete data retention policy',
  'change project Alpha tag bindings',
];

// prettier-ignore
const RELATIONS: Record<Actor, number[]> = {
  //                          consumers flat tag    SSH   ws tag  retention    project
  //                          remove    add  remove key   binds   set  delete  tag binds
  // (The consumer removed is in project Beta, as above: 422 for who may act on `web` but not read it.)
  'site administrator':       [204,     204, 204,   200,  200,    200, 204,    200],
  'owner':                    [204,     204, 204,   200,  200,    200, 204,    200],
  'manage-projects team':     [204,     204, 204,   200,  200,    200, 204,    200],
  'manage-workspaces team':   [204,     204, 204,   200,  200,    200, 204,    404],
  'read-workspaces team':     [404,     404, 404,   404,  404,    404, 404,    404],
  'project admin':            [422,     204, 204,   200,  200,    200, 204,    200],
  'project maintain':         [422,     204, 204,   200,  200,    200, 204,    404],
  'project read':             [404,     404, 404,   404,  404,    404, 404,    404],
  'workspace admin':          [422,     204, 204,   200,  200,    200, 204,    404],
  'workspace write':          [404,     404, 404,   404,  404,    404, 404,    404],
  'workspace plan':           [404,     404, 404,   404,  404,    404, 404,    404],
  'workspace read':           [404,     404, 404,   404,  404,    404, 404,    404],
  'custom lock-only':         [404,     404, 404,   404,  404,    404, 404,    404],
  'team token (workspace admin team)': [422, 204, 204, 200, 200,  200, 204,    404],
  'organization token':       [204,     204, 204,   200,  200,    200, 204,    200],
  'other organization token': [404,     404, 404,   404,  404,    404, 404,    404],
  'revoked token':            [401,     401, 401,   401,  401,    401, 401,    401],
  'no token':                 [401,     401, 401,   401,  401,    401, 401,    401],
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
    case 'project maintain': {
      const m = await teamMember(f, 'pm');
      await grantProject(f, m.teamId, f.alpha, 'maintain');
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

/** As the owner: creates a workspace in Beta and returns its id. */
async function betaWorkspace(f: AccessFixture): Promise<string> {
  const res = await f.api.post('/api/v2/organizations/acme/workspaces', wsCreate('reader', f.beta), {
    token: f.owner.token,
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}

async function performRelation(f: AccessFixture, op: RelationOp, token: string | null): Promise<ApiResponse> {
  const { api, web } = f;
  const as = { token };
  const asOwner = { token: f.owner.token };
  const tags = `/api/v2/workspaces/${web}/relationships/tags`;
  const retention = `/api/v2/workspaces/${web}/relationships/data-retention-policy`;
  const bindings = (key: string) => ({ data: [{ type: 'tag-bindings', attributes: { key, value: 'v' } }] });
  switch (op) {
    case 'remove remote state consumers': {
      const body = { data: [{ type: 'workspaces', id: await betaWorkspace(f) }] };
      const path = `/api/v2/workspaces/${web}/relationships/remote-state-consumers`;
      expect((await api.post(path, body, asOwner)).status).toBe(204);
      return api.delete(path, { ...as, body });
    }
    case 'add flat tag':
      return api.post(tags, { data: [{ type: 'tags', attributes: { name: 'matrix' } }] }, as);
    case 'remove flat tag': {
      const body = { data: [{ type: 'tags', attributes: { name: 'prod' } }] };
      expect((await api.post(tags, body, asOwner)).status).toBe(204);
      return api.delete(tags, { ...as, body });
    }
    case 'assign SSH key': {
      const key = await api.post(
        '/api/v2/organizations/acme/ssh-keys',
        { data: { type: 'ssh-keys', attributes: { name: 'deploy', value: 'PRIVATE KEY' } } },
        asOwner,
      );
      expect(key.status, key.text).toBe(201);
      return api.patch(
        `/api/v2/workspaces/${web}/relationships/ssh-key`,
        { data: { type: 'workspaces', attributes: { id: key.body.data.id } } },
        as,
      );
    }
    case 'change workspace tag bindings':
      return api.patch(`/api/v2/workspaces/${web}/tag-bindings`, bindings('env'), as);
    case 'set data retention policy':
      return api.post(
        retention,
        { data: { type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': 3 } } },
        as,
      );
    case 'delete data retention policy':
      expect(
        (await api.post(retention, { data: { type: 'data-retention-policy-dont-deletes' } }, asOwner)).status,
      ).toBe(200);
      return api.delete(retention, as);
    case 'change project Alpha tag bindings':
      return api.patch(`/api/v2/projects/${f.alpha}/tag-bindings`, bindings('team'), as);
  }
}

const CASES = (Object.keys(MATRIX) as Actor[]).flatMap((actor) =>
  OPS.map((op, i) => ({ actor, op, status: MATRIX[actor][i] })),
);
const RELATION_CASES = (Object.keys(RELATIONS) as Actor[]).flatMap((actor) =>
  RELATION_OPS.map((op, i) => ({ actor, op, status: RELATIONS[actor][i] })),
);

/** The one error document of a refusal: 404 "not found, or you are not authorized to ...", 403 where the spec says. */
function expectRefusal(res: ApiResponse, status: number): void {
  if (status === 404) {
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ status: '404', title: 'not found' });
  }
  if (status === 403) {
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ status: '403', title: 'forbidden' });
  }
}

describe('permission matrix (spec: Authentication)', () => {
  let api: TestApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('has one expected status for every actor and operation', () => {
    for (const row of Object.values(MATRIX)) expect(row).toHaveLength(OPS.length);
    for (const row of Object.values(RELATIONS)) expect(row).toHaveLength(RELATION_OPS.length);
  });

  it.each(CASES)('$actor: $op -> $status', async ({ actor, op, status }) => {
    api = await TestApi.create();
    await approvedConsumersOnly(api);
    const f = await accessFixture(api);
    const token = await actorToken(f, actor);
    const res = await perform(f, op, token);
    expect(res.status, `${actor} / ${op}: ${res.text}`).toBe(status);
    expectRefusal(res, status);
  });

  it.each(RELATION_CASES)('$actor: $op -> $status', async ({ actor, op, status }) => {
    api = await TestApi.create();
    await approvedConsumersOnly(api);
    const f = await accessFixture(api);
    const token = await actorToken(f, actor);
    const res = await performRelation(f, op, token);
    expect(res.status, `${actor} / ${op}: ${res.text}`).toBe(status);
    expectRefusal(res, status);
  });
});
