import { afterEach, beforeEach, expect } from 'vitest';
import { TestApi } from './api.js';
import { joinOrganization } from './members.js';

/** A fixture for authorization tests: organization `acme` with projects Alpha and Beta, workspace `web` in Alpha. */
export interface AccessFixture {
  api: TestApi;
  owner: { userId: string; token: string };
  alpha: string;
  beta: string;
  web: string;
}

export const teamBody = (name: string, access: Record<string, boolean> = {}) => ({
  data: { type: 'teams', attributes: { name, 'organization-access': access } },
});

export async function accessFixture(api: TestApi): Promise<AccessFixture> {
  const owner = await api.userToken('owner');
  expect((await api.createOrg('acme', owner.token)).status).toBe(201);
  const project = async (name: string) => {
    const res = await api.post(
      '/api/v2/organizations/acme/projects',
      { data: { type: 'projects', attributes: { name } } },
      { token: owner.token },
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  const alpha = await project('Alpha');
  const beta = await project('Beta');
  const ws = await api.post(
    '/api/v2/organizations/acme/workspaces',
    {
      data: {
        type: 'workspaces',
        attributes: { name: 'web' },
        relationships: { project: { data: { type: 'projects', id: alpha } } },
      },
    },
    { token: owner.token },
  );
  expect(ws.status, ws.text).toBe(201);
  return { api, owner, alpha, beta, web: ws.body.data.id };
}

/** Creates a team (with organization access), a user in it, and returns the user's token and the team id. */
export async function teamMember(
  f: AccessFixture,
  name: string,
  access: Record<string, boolean> = {},
): Promise<{ token: string; teamId: string; userId: string }> {
  const team = await f.api.post('/api/v2/organizations/acme/teams', teamBody(name, access), { token: f.owner.token });
  expect(team.status, team.text).toBe(201);
  const user = await f.api.userToken(`${name}-user`);
  await joinOrganization(f.api, 'acme', `${name}-user`, user.token, f.owner.token);
  const add = await f.api.post(
    `/api/v2/teams/${team.body.data.id}/relationships/users`,
    { data: [{ type: 'users', id: `${name}-user` }] },
    { token: f.owner.token },
  );
  expect(add.status, add.text).toBe(204);
  return { token: user.token, teamId: team.body.data.id, userId: user.userId };
}

export const teamProjectBody = (teamId: string, projectId: string, attributes: Record<string, unknown>) => ({
  data: {
    type: 'team-projects',
    attributes,
    relationships: {
      team: { data: { type: 'teams', id: teamId } },
      project: { data: { type: 'projects', id: projectId } },
    },
  },
});

export const teamWorkspaceBody = (teamId: string, workspaceId: string, attributes: Record<string, unknown>) => ({
  data: {
    type: 'team-workspaces',
    attributes,
    relationships: {
      team: { data: { type: 'teams', id: teamId } },
      workspace: { data: { type: 'workspaces', id: workspaceId } },
    },
  },
});

export async function grantProject(
  f: AccessFixture,
  teamId: string,
  projectId: string,
  access: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await f.api.post('/api/v2/team-projects', teamProjectBody(teamId, projectId, { access, ...extra }), {
    token: f.owner.token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data.id;
}

export async function grantWorkspace(
  f: AccessFixture,
  teamId: string,
  workspaceId: string,
  access: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await f.api.post(
    '/api/v2/team-workspaces',
    teamWorkspaceBody(teamId, workspaceId, { access, ...extra }),
    { token: f.owner.token },
  );
  expect(res.status, res.text).toBe(200);
  return res.body.data.id;
}

/**
 * Before each test of the file: a new API on a fresh store and the access fixture on it, handed
 * to `use`; the API is closed after each test.
 */
export function eachWithAccessFixture(use: (api: TestApi, f: AccessFixture) => void): void {
  let api: TestApi;
  beforeEach(async () => {
    api = await TestApi.create();
    use(api, await accessFixture(api));
  });
  afterEach(() => api.close());
}
