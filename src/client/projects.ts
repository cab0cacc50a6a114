import type { BerthClient, ListAllOptions, PageOptions } from './client.js';
import { type ListResult, type Resource, type SingleResult } from './jsonapi.js';
import type { ProjectAttributes, TagBindingAttributes } from './resources.js';

/** A key-value tag as the CLI passes it; an empty value is allowed. */
export interface TagPair {
  key: string;
  value: string;
}

export type ProjectPermission = 'create-workspace' | 'update';

export interface ProjectListOptions {
  /** Case-insensitive substring of the name (`q`). */
  search?: string;
  /** Exact names, case-insensitive (`filter[names]`); wins over `search`. */
  names?: string[];
  /** Only projects where the caller may do this (`filter[permissions][...]`). */
  can?: ProjectPermission[];
  /** `filter[tagged][i]`: a binding with this key (and this value when given). */
  tags?: { key: string; value?: string }[];
  sort?: 'name' | '-name';
}

const enc = encodeURIComponent;

export function tagBindingData(tags: TagPair[]): unknown[] {
  return tags.map((t) => ({ type: 'tag-bindings', attributes: { key: t.key, value: t.value } }));
}

function listQuery(o: ProjectListOptions): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = { q: o.search, sort: o.sort };
  if (o.names && o.names.length > 0) query['filter[names]'] = o.names.join(',');
  for (const perm of o.can ?? []) query[`filter[permissions][${perm}]`] = 'true';
  (o.tags ?? []).forEach((t, i) => {
    query[`filter[tagged][${i}][key]`] = t.key;
    query[`filter[tagged][${i}][value]`] = t.value;
  });
  return query;
}

export function listProjects(
  client: BerthClient,
  org: string,
  options: ProjectListOptions = {},
  page: PageOptions = {},
): Promise<ListResult<ProjectAttributes>> {
  return client.list<ProjectAttributes>(`/organizations/${enc(org)}/projects`, listQuery(options), page);
}

export function listAllProjects(
  client: BerthClient,
  org: string,
  options: ProjectListOptions = {},
  paging: ListAllOptions = {},
): Promise<Resource<ProjectAttributes>[]> {
  return client.listAll<ProjectAttributes>(`/organizations/${enc(org)}/projects`, listQuery(options), paging);
}

/** The project of `org` with exactly this name (compared case-insensitively), or null. */
export async function findProjectByName(
  client: BerthClient,
  org: string,
  name: string,
): Promise<Resource<ProjectAttributes> | null> {
  const { data } = await listProjects(client, org, { names: [name] }, { pageSize: 100 });
  return data.find((p) => String(p.attributes.name).toLowerCase() === name.toLowerCase()) ?? null;
}

export function getProject(client: BerthClient, id: string): Promise<SingleResult<ProjectAttributes>> {
  return client.get<ProjectAttributes>(`/projects/${enc(id)}`);
}

function tagRelationship(tags: TagPair[] | undefined): Record<string, unknown> | undefined {
  return tags === undefined ? undefined : { 'tag-bindings': { data: tagBindingData(tags) } };
}

export function createProject(client: BerthClient, org: string, attributes: Record<string, unknown>, tags?: TagPair[]) {
  return client.create<ProjectAttributes>(
    `/organizations/${enc(org)}/projects`,
    'projects',
    attributes,
    tagRelationship(tags),
  );
}

/** `tags` given replaces the project's bindings (`[]` removes them); undefined leaves them. */
export function updateProject(
  client: BerthClient,
  id: string,
  attributes: Record<string, unknown>,
  tags?: TagPair[],
): Promise<SingleResult<ProjectAttributes>> {
  return client.update(`/projects/${enc(id)}`, 'projects', attributes, tagRelationship(tags));
}

export function deleteProject(client: BerthClient, id: string): Promise<void> {
  return client.delete(`/projects/${enc(id)}`);
}

export async function listTagBindings(client: BerthClient, id: string): Promise<Resource<TagBindingAttributes>[]> {
  return (
    (await client.request<{ data: Resource<TagBindingAttributes>[] }>('GET', `/projects/${enc(id)}/tag-bindings`)).body
      ?.data ?? []
  );
}

export async function listEffectiveTagBindings(
  client: BerthClient,
  id: string,
): Promise<Resource<TagBindingAttributes>[]> {
  return (
    (
      await client.request<{ data: Resource<TagBindingAttributes>[] }>(
        'GET',
        `/projects/${enc(id)}/effective-tag-bindings`,
      )
    ).body?.data ?? []
  );
}

/**
 * Sets the project's own bindings to exactly `tags` (`PATCH .../relationships/tag-bindings`, which
 * replaces the set): how a binding is removed.
 */
export async function replaceTagBindings(client: BerthClient, id: string, tags: TagPair[]): Promise<void> {
  await client.request('PATCH', `/projects/${enc(id)}/relationships/tag-bindings`, {
    body: { data: tagBindingData(tags) },
  });
}

/** Adds bindings or updates their values by key; returns every binding of the project. */
export async function addTagBindings(
  client: BerthClient,
  id: string,
  tags: TagPair[],
): Promise<Resource<TagBindingAttributes>[]> {
  const res = await client.request<{ data: Resource<TagBindingAttributes>[] }>(
    'PATCH',
    `/projects/${enc(id)}/tag-bindings`,
    {
      body: { data: tagBindingData(tags) },
    },
  );
  return res.body?.data ?? [];
}
