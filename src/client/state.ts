import type { BerthClient, ListAllOptions, PageOptions } from './client.js';
import { resourceBody, type ListResult, type Resource, type SingleResult } from './jsonapi.js';
import type { RunAttributes, StateVersionAttributes, WorkspaceAttributes } from './resources.js';
import { WorkspacesClient, type WorkspaceRef } from './workspaces.js';

const enc = encodeURIComponent;

/** Locks, state versions and run records of workspaces. */
export class WorkspaceStateClient {
  constructor(private readonly client: BerthClient) {}

  /** The workspace id of a reference (the lock, state and run endpoints are addressed by id). */
  async workspaceId(ref: WorkspaceRef): Promise<string> {
    if ('id' in ref) return ref.id;
    return (await new WorkspacesClient(this.client).get(ref)).data.id;
  }

  async lock(id: string, reason?: string): Promise<Resource<WorkspaceAttributes>> {
    return (
      await this.client.request<SingleResult<WorkspaceAttributes>>('POST', `/workspaces/${enc(id)}/actions/lock`, {
        body: reason === undefined ? undefined : { reason },
      })
    ).body!.data;
  }

  async unlock(id: string, force = false): Promise<Resource<WorkspaceAttributes>> {
    return (
      await this.client.request<SingleResult<WorkspaceAttributes>>(
        'POST',
        `/workspaces/${enc(id)}/actions/${force ? 'force-unlock' : 'unlock'}`,
      )
    ).body!.data;
  }

  async createStateVersion(id: string, attributes: Record<string, unknown>): Promise<Resource<StateVersionAttributes>> {
    return (
      await this.client.request<SingleResult<StateVersionAttributes>>('POST', `/workspaces/${enc(id)}/state-versions`, {
        body: resourceBody('state-versions', attributes),
      })
    ).body!.data;
  }

  /** HCP Terraform's rollback: a new version of the workspace with the content of its version `sourceId` (under the caller's lock). */
  async rollback(id: string, sourceId: string): Promise<Resource<StateVersionAttributes>> {
    return (
      await this.client.request<SingleResult<StateVersionAttributes>>(
        'PATCH',
        `/workspaces/${enc(id)}/state-versions`,
        {
          body: {
            data: {
              type: 'state-versions',
              relationships: { 'rollback-state-version': { data: { type: 'state-versions', id: sourceId } } },
            },
          },
        },
      )
    ).body!.data;
  }

  async stateVersion(id: string): Promise<Resource<StateVersionAttributes>> {
    return (await this.client.get<StateVersionAttributes>(`/state-versions/${enc(id)}`)).data;
  }

  /** The outputs of one state version, values included (sensitive ones too: it needs the state outputs permission). */
  versionOutputs(id: string): Promise<Resource[]> {
    return this.client.listAll(`/state-versions/${enc(id)}/outputs`, {}, {});
  }

  currentStateVersion(id: string): Promise<SingleResult<StateVersionAttributes>> {
    return this.client.get<StateVersionAttributes>(`/workspaces/${enc(id)}/current-state-version`);
  }

  listStateVersions(id: string, options: ListAllOptions = {}): Promise<Resource<StateVersionAttributes>[]> {
    return this.client.listAll<StateVersionAttributes>(`/workspaces/${enc(id)}/state-versions`, {}, options);
  }

  /** The outputs of the workspace's current state (sensitive values null). */
  currentOutputs(id: string, options: ListAllOptions = {}): Promise<Resource[]> {
    return this.client.listAll(`/workspaces/${enc(id)}/current-state-version-outputs`, {}, options);
  }

  /** One state version output, its value included even when sensitive. */
  async output(id: string): Promise<Resource> {
    return (await this.client.get(`/state-version-outputs/${enc(id)}`)).data;
  }

  /** PUTs or GETs a hosted-state URL (absolute, authorized by the secret it carries). */
  async content(url: string, upload?: Buffer): Promise<Buffer> {
    const res = await this.client.raw(
      url,
      upload ? { method: 'PUT', body: upload, contentType: 'application/octet-stream' } : { method: 'GET' },
    );
    return Buffer.from(await res.arrayBuffer());
  }

  createRun(workspaceId: string, attributes: Record<string, unknown>): Promise<SingleResult<RunAttributes>> {
    return this.client.create<RunAttributes>('/runs', 'runs', attributes, {
      workspace: { data: { type: 'workspaces', id: workspaceId } },
    });
  }

  getRun(id: string): Promise<SingleResult<RunAttributes>> {
    return this.client.get<RunAttributes>(`/runs/${enc(id)}`);
  }

  listRuns(workspaceId: string, page: PageOptions = {}): Promise<ListResult<RunAttributes>> {
    return this.client.list<RunAttributes>(`/workspaces/${enc(workspaceId)}/runs`, {}, page);
  }

  listAllRuns(workspaceId: string, options: ListAllOptions = {}): Promise<Resource<RunAttributes>[]> {
    return this.client.listAll<RunAttributes>(`/workspaces/${enc(workspaceId)}/runs`, {}, options);
  }

  /** berth's executor extension: reports a run's move to `status` at time `at`. */
  async report(
    runId: string,
    attributes: {
      status: string;
      at?: string;
      'error-message'?: string;
      'policy-check-failed'?: boolean;
      /** The moves before `status`, in order, in the same request. */
      phases?: { status: string; at?: string }[];
    },
  ): Promise<Resource<RunAttributes>> {
    return (
      await this.client.request<SingleResult<RunAttributes>>('POST', `/runs/${enc(runId)}/actions/report`, {
        body: resourceBody('run-reports', attributes),
      })
    ).body!.data;
  }
}
