import { expect } from 'vitest';
import { newId } from '../../src/domain/common/ids.js';
import type { ApiResponse, TestApi } from './api.js';

export const PRJ_ID = /^prj-[A-Za-z0-9]{16}$/;
export const TB_ID = /^tb-[A-Za-z0-9]{16}$/;
export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export type Tag = { key: string; value?: string };

export const tagData = (tags: Tag[]) =>
  tags.map((t) => ({ type: 'tag-bindings', attributes: t.value === undefined ? { key: t.key } : t }));

/** A project create/update body; `tags` adds `relationships.tag-bindings`. */
export function projectBody(attributes: Record<string, unknown>, tags?: Tag[], type = 'projects') {
  const data: Record<string, unknown> = { type, attributes };
  if (tags) data.relationships = { 'tag-bindings': { data: tagData(tags) } };
  return { data };
}

export async function createProject(
  api: TestApi,
  org: string,
  attributes: Record<string, unknown>,
  tags?: Tag[],
  token?: string,
): Promise<any> {
  const res = await api.post(`/api/v2/organizations/${org}/projects`, projectBody(attributes, tags), { token });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

/** Everything the project endpoints can change, to prove that a rejected request changed nothing. */
export async function projectState(api: TestApi) {
  const db = api.store.db;
  return {
    projects: await db.selectFrom('projects').selectAll().orderBy('seq').execute(),
    bindings: await db.selectFrom('project_tag_bindings').selectAll().orderBy('seq').execute(),
  };
}

/**
 * Sends a request that must be rejected with exactly one error `{status, title, detail, source}`
 * and must leave the store as it was.
 */
export async function expectRejected(
  api: TestApi,
  send: () => Promise<ApiResponse>,
  expected: { status: number; title: string; detail: string; pointer?: string },
): Promise<ApiResponse> {
  const before = await projectState(api);
  const res = await send();
  expect(res.status, res.text).toBe(expected.status);
  expect(res.headers.get('Content-Type')).toBe('application/vnd.api+json');
  const error: Record<string, unknown> = {
    status: String(expected.status),
    title: expected.title,
    detail: expected.detail,
  };
  if (expected.pointer) error.source = { pointer: expected.pointer };
  expect(res.body.errors).toEqual([error]);
  expect(await projectState(api)).toEqual(before);
  return res;
}

/** Adds a user to a new team of `org` with the given organization permissions. */
export async function addToTeam(
  api: TestApi,
  org: string,
  userId: string,
  grants: Partial<{
    manage_projects: number;
    manage_workspaces: number;
    read_projects: number;
    read_workspaces: number;
  }>,
): Promise<string> {
  const db = api.store.db;
  const { id: orgId } = await db
    .selectFrom('organizations')
    .select('id')
    .where('name', '=', org)
    .executeTakeFirstOrThrow();
  const teamId = newId('team');
  await db
    .insertInto('teams')
    .values({
      id: teamId,
      organization_id: orgId,
      name: `team-${teamId}`,
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
  await db.insertInto('team_members').values({ team_id: teamId, user_id: userId }).execute();
  return teamId;
}
