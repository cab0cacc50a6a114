import { expect } from 'vitest';
import { newId } from '../../src/domain/common/ids.js';
import type { ApiResponse, TestApi } from './api.js';

/** A workspace create/update document. */
export const wsBody = (attributes: Record<string, unknown> = {}, relationships?: Record<string, unknown>) => ({
  data: { type: 'workspaces', attributes, ...(relationships ? { relationships } : {}) },
});

export const bindings = (pairs: Record<string, string>) => ({
  data: Object.entries(pairs).map(([key, value]) => ({ type: 'tag-bindings', attributes: { key, value } })),
});

export async function createWorkspace(
  api: TestApi,
  org: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, unknown>,
  token?: string,
): Promise<ApiResponse> {
  const res = await api.post(`/api/v2/organizations/${org}/workspaces`, wsBody(attributes, relationships), { token });
  if (res.status !== 201) throw new Error(`create ${JSON.stringify(attributes)} failed: ${res.status} ${res.text}`);
  return res;
}

/** Everything stored about workspaces, to show that a rejected write changed nothing. */
export async function storeSnapshot(api: TestApi): Promise<unknown> {
  const db = api.store.db;
  return {
    workspaces: await db.selectFrom('workspaces').selectAll().orderBy('seq').execute(),
    bindings: await db.selectFrom('workspace_tag_bindings').selectAll().orderBy('seq').execute(),
    projects: await db.selectFrom('projects').selectAll().orderBy('seq').execute(),
  };
}

/** Runs `request`, expects one 422 at `pointer` (and `detail` when given), and no change stored. */
export async function expect422(
  api: TestApi,
  request: () => Promise<ApiResponse>,
  pointer: string,
  detail?: string | RegExp,
): Promise<ApiResponse> {
  const before = await storeSnapshot(api);
  const res = await request();
  expect(res.status, res.text).toBe(422);
  expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
  const match = res.body.errors.find((e: any) => e.source?.pointer === pointer);
  expect(match, `no error at ${pointer}: ${res.text}`).toBeDefined();
  expect(match).toMatchObject({ status: '422', title: 'invalid attribute' });
  if (typeof detail === 'string') expect(match.detail).toBe(detail);
  else if (detail) expect(match.detail).toMatch(detail);
  expect(await storeSnapshot(api)).toEqual(before);
  return res;
}

export async function orgId(api: TestApi, name: string): Promise<string> {
  return (
    await api.store.db.selectFrom('organizations').select('id').where('name', '=', name).executeTakeFirstOrThrow()
  ).id;
}

export async function defaultProjectId(api: TestApi, org: string): Promise<string> {
  const res = await api.get(`/api/v2/organizations/${org}`);
  return res.body.data.relationships['default-project'].data.id;
}

/**
 * Inserts a project directly (the projects API is built on another branch), optionally with an
 * auto-destroy duration, a default execution mode and tag bindings.
 */
export async function insertProject(
  api: TestApi,
  org: string,
  name: string,
  options: { autoDestroy?: string | null; executionMode?: string; tags?: Record<string, string> } = {},
): Promise<string> {
  const id = newId('prj');
  const now = new Date().toISOString();
  await api.store.db
    .insertInto('projects')
    .values({
      id,
      organization_id: await orgId(api, org),
      name,
      name_lower: name.toLowerCase(),
      description: null,
      auto_destroy_activity_duration: options.autoDestroy ?? null,
      default_execution_mode: options.executionMode ?? 'remote',
      execution_overridden: options.executionMode ? 1 : 0,
      is_default: 0,
      created_at: now,
    })
    .execute();
  for (const [key, value] of Object.entries(options.tags ?? {})) {
    await api.store.db
      .insertInto('project_tag_bindings')
      .values({ id: newId('tb'), project_id: id, key, value, created_at: now })
      .execute();
  }
  return id;
}

/**
 * A user in a team of the organization with the given grants (the teams API is a later issue),
 * returning a token acting as that user.
 */
export async function teamUser(
  api: TestApi,
  org: string,
  username: string,
  grants: Partial<
    Record<'is_owners' | 'manage_projects' | 'manage_workspaces' | 'read_projects' | 'read_workspaces', number>
  >,
): Promise<string> {
  const { userId, token } = await api.userToken(username);
  const teamId = newId('team');
  await api.store.db
    .insertInto('teams')
    .values({
      id: teamId,
      organization_id: await orgId(api, org),
      name: `team-${username}`,
      is_owners: 0,
      manage_projects: 0,
      manage_workspaces: 0,
      read_projects: 0,
      read_workspaces: 0,
      visibility: 'secret',
      created_at: new Date().toISOString(),
      ...grants,
    })
    .execute();
  await api.store.db.insertInto('team_members').values({ team_id: teamId, user_id: userId }).execute();
  return token;
}

export async function createAgentPool(api: TestApi, org: string, name: string): Promise<string> {
  const res = await api.post(`/api/v2/organizations/${org}/agent-pools`, {
    data: { type: 'agent-pools', attributes: { name } },
  });
  if (res.status !== 201) throw new Error(`agent pool: ${res.status} ${res.text}`);
  return res.body.data.id;
}

/** An agent token of the pool (its secret), made by whoever `token` is (the API's own by default). */
export async function createAgentToken(api: TestApi, pool: string, token?: string): Promise<string> {
  const res = await api.post(
    `/api/v2/agent-pools/${pool}/authentication-tokens`,
    { data: { type: 'authentication-tokens', attributes: { description: 'rack' } } },
    token ? { token } : undefined,
  );
  if (res.status !== 201) throw new Error(`agent token: ${res.status} ${res.text}`);
  return res.body.data.attributes.token;
}

export async function createOAuthToken(api: TestApi, org: string, serviceProvider = 'github'): Promise<string> {
  const res = await api.post(`/api/v2/organizations/${org}/oauth-tokens`, {
    data: { type: 'oauth-tokens', attributes: { 'service-provider': serviceProvider } },
  });
  if (res.status !== 201) throw new Error(`oauth token: ${res.status} ${res.text}`);
  return res.body.data.id;
}
