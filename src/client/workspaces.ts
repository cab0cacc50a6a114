import type { BerthClient, ListAllOptions, PageOptions, RequestOptions } from './client.js';
import { BerthError } from '../domain/common/errors.js';
import type { ListResult, Resource, SingleResult } from './jsonapi.js';
import type { AgentPoolAttributes, WorkspaceAttributes } from './resources.js';
import { findProjectByName, listAllProjects } from './projects.js';
import { notFoundWithSuggestions } from './suggest.js';

/** A workspace by id, or by organization and name (the API accepts both). */
export type WorkspaceRef = { id: string } | { organization: string; name: string };

export function workspacePath(ref: WorkspaceRef): string {
  return 'id' in ref
    ? `/workspaces/${encodeURIComponent(ref.id)}`
    : `/organizations/${encodeURIComponent(ref.organization)}/workspaces/${encodeURIComponent(ref.name)}`;
}

/** List filters as the API names them (`search[name]`, `filter[tagged][0][key]`, `sort`, ...). */
export interface WorkspaceListFilters {
  search?: string;
  wildcard?: string;
  tags?: string[];
  excludeTags?: string[];
  projectId?: string;
  runStatus?: string[];
  tagged?: { key: string; value: string }[];
  /** `filter[locked]`: only locked (true) or only unlocked (false) workspaces. */
  locked?: boolean;
  sort?: string;
  include?: string;
}

export function listQuery(f: WorkspaceListFilters): RequestOptions['query'] {
  const q: Record<string, string | undefined> = {
    'search[name]': f.search,
    'search[wildcard-name]': f.wildcard,
    'search[tags]': f.tags?.join(','),
    'search[exclude-tags]': f.excludeTags?.join(','),
    'filter[project][id]': f.projectId,
    'filter[current-run][status]': f.runStatus?.join(','),
    'filter[locked]': f.locked === undefined ? undefined : String(f.locked),
    sort: f.sort,
    include: f.include,
  };
  (f.tagged ?? []).forEach((t, i) => {
    q[`filter[tagged][${i}][key]`] = t.key;
    q[`filter[tagged][${i}][value]`] = t.value;
  });
  return q;
}

/** The workspace endpoints, over any transport. */
export class WorkspacesClient {
  constructor(private readonly client: BerthClient) {}

  /** A workspace; a name that is not found gets a 404 listing close matches. */
  async get(ref: WorkspaceRef, include?: string): Promise<SingleResult<WorkspaceAttributes>> {
    try {
      return await this.client.get<WorkspaceAttributes>(workspacePath(ref), { include });
    } catch (err) {
      if (!(err instanceof BerthError) || err.status !== 404 || 'id' in ref) throw err;
      throw await this.notFound(ref);
    }
  }

  private async notFound(ref: { organization: string; name: string }): Promise<BerthError> {
    let names: string[] = [];
    try {
      const { data } = await this.list(ref.organization, { search: ref.name.slice(0, 2) }, { pageSize: 100 });
      names = data.map((w) => String(w.attributes.name));
    } catch {
      // An unreadable organization: no suggestions.
    }
    return notFoundWithSuggestions('workspace', ref.name, ref.organization, names);
  }

  create(
    organization: string,
    attributes: Record<string, unknown>,
    relationships?: Record<string, unknown>,
  ): Promise<SingleResult<WorkspaceAttributes>> {
    return this.client.create<WorkspaceAttributes>(
      `/organizations/${encodeURIComponent(organization)}/workspaces`,
      'workspaces',
      attributes,
      relationships,
    );
  }

  update(
    ref: WorkspaceRef,
    attributes: Record<string, unknown>,
    relationships?: Record<string, unknown>,
  ): Promise<SingleResult<WorkspaceAttributes>> {
    return this.client.update<WorkspaceAttributes>(workspacePath(ref), 'workspaces', attributes, relationships);
  }

  list(
    organization: string,
    filters: WorkspaceListFilters = {},
    page: PageOptions = {},
  ): Promise<ListResult<WorkspaceAttributes>> {
    return this.client.list<WorkspaceAttributes>(
      `/organizations/${encodeURIComponent(organization)}/workspaces`,
      listQuery(filters),
      page,
    );
  }

  listAll(
    organization: string,
    filters: WorkspaceListFilters = {},
    options: ListAllOptions = {},
  ): Promise<Resource<WorkspaceAttributes>[]> {
    return this.client.listAll<WorkspaceAttributes>(
      `/organizations/${encodeURIComponent(organization)}/workspaces`,
      listQuery(filters),
      options,
    );
  }

  async safeDelete(ref: WorkspaceRef): Promise<void> {
    await this.client.request('POST', `${workspacePath(ref)}/actions/safe-delete`);
  }

  async forceDelete(ref: WorkspaceRef): Promise<void> {
    await this.client.delete(workspacePath(ref));
  }
}

function allowedWorkspaces(ids: string[] | undefined): Record<string, unknown> | undefined {
  return ids ? { 'allowed-workspaces': { data: ids.map((id) => ({ type: 'workspaces', id })) } } : undefined;
}

/** Agent pools and OAuth tokens: the records that workspace settings refer to. */
export class AgentPoolsClient {
  constructor(private readonly client: BerthClient) {}

  create(
    organization: string,
    name: string,
    options: { organizationScoped?: boolean; allowedWorkspaceIds?: string[] } = {},
  ): Promise<SingleResult<AgentPoolAttributes>> {
    return this.client.create<AgentPoolAttributes>(
      `/organizations/${encodeURIComponent(organization)}/agent-pools`,
      'agent-pools',
      { name, 'organization-scoped': options.organizationScoped },
      allowedWorkspaces(options.allowedWorkspaceIds),
    );
  }

  /** Changes what is given; `allowedWorkspaceIds` replaces the allowed workspaces (`[]` clears them). */
  update(
    id: string,
    changes: { name?: string; organizationScoped?: boolean; allowedWorkspaceIds?: string[] },
  ): Promise<SingleResult<AgentPoolAttributes>> {
    return this.client.update<AgentPoolAttributes>(
      `/agent-pools/${encodeURIComponent(id)}`,
      'agent-pools',
      { name: changes.name, 'organization-scoped': changes.organizationScoped },
      allowedWorkspaces(changes.allowedWorkspaceIds),
    );
  }

  /** `allowedWorkspace`: only the pools that workspace (by name) may use. */
  list(
    organization: string,
    filters: { allowedWorkspace?: string } = {},
    options: ListAllOptions = {},
  ): Promise<Resource<AgentPoolAttributes>[]> {
    return this.client.listAll<AgentPoolAttributes>(
      `/organizations/${encodeURIComponent(organization)}/agent-pools`,
      {
        'filter[allowed_workspaces][name]': filters.allowedWorkspace,
      },
      options,
    );
  }

  get(id: string): Promise<SingleResult<AgentPoolAttributes>> {
    return this.client.get<AgentPoolAttributes>(`/agent-pools/${encodeURIComponent(id)}`);
  }

  delete(id: string): Promise<void> {
    return this.client.delete(`/agent-pools/${encodeURIComponent(id)}`);
  }
}

export class OAuthTokensClient {
  constructor(private readonly client: BerthClient) {}

  create(organization: string, attributes: { 'service-provider'?: string; name?: string }): Promise<SingleResult> {
    return this.client.create(
      `/organizations/${encodeURIComponent(organization)}/oauth-tokens`,
      'oauth-tokens',
      attributes,
    );
  }

  list(organization: string, options: ListAllOptions = {}): Promise<Resource[]> {
    return this.client.listAll(`/organizations/${encodeURIComponent(organization)}/oauth-tokens`, {}, options);
  }
}

/** Moving workspaces into a project, and finding projects by name. */
export class ProjectWorkspacesClient {
  constructor(private readonly client: BerthClient) {}

  async move(projectId: string, workspaceIds: string[]): Promise<void> {
    await this.client.request('POST', `/projects/${encodeURIComponent(projectId)}/relationships/workspaces`, {
      body: { data: workspaceIds.map((id) => ({ type: 'workspaces', id })) },
    });
  }
}

function notFound(detail: string): BerthError {
  return new BerthError([{ status: 404, title: 'not found', detail }]);
}

/** A project id from a `prj-` id or a name in the organization (case-insensitive). */
export async function resolveProjectId(client: BerthClient, organization: string, project: string): Promise<string> {
  if (/^prj-[A-Za-z0-9]{16}$/.test(project)) return project;
  const found = await findProjectByName(client, organization, project);
  if (!found)
    throw notFoundWithSuggestions(
      'project',
      project,
      organization,
      (await listAllProjects(client, organization)).map((p) => String(p.attributes.name)),
    );
  return found.id;
}

/** An agent pool id from an `apool-` id or a pool name in the organization. */
export async function resolveAgentPoolId(client: BerthClient, organization: string, pool: string): Promise<string> {
  if (/^apool-[A-Za-z0-9]{16}$/.test(pool)) return pool;
  const found = (await new AgentPoolsClient(client).list(organization)).find((p) => p.attributes.name === pool);
  if (!found) throw notFound(`agent pool ${pool} not found in organization ${organization}`);
  return found.id;
}
