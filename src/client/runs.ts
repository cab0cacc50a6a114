import type { BerthClient, ListAllOptions, PageOptions } from './client.js';
import type { ListResult, Resource, SingleResult } from './jsonapi.js';
import type { ConfigurationVersionAttributes, PhaseAttributes, RunAttributes } from './resources.js';

const enc = encodeURIComponent;

/** What `berth run start` asks of a run berth executes (HCP's run attributes). */
export interface ExecutedRunOptions {
  message?: string;
  'is-destroy'?: boolean;
  'refresh-only'?: boolean;
  'plan-only'?: boolean;
  'save-plan'?: boolean;
  'auto-apply'?: boolean;
  'target-addrs'?: string[];
  'replace-addrs'?: string[];
  variables?: { key: string; value: string }[];
}

export type RunActionName = 'apply' | 'discard' | 'cancel' | 'force-cancel';
export type PhaseName = 'plan' | 'apply';

/** Runs that berth executes: configuration versions, runs, their phases, logs and actions. */
export class RunsClient {
  constructor(private readonly client: BerthClient) {}

  async createConfigurationVersion(workspaceId: string): Promise<Resource<ConfigurationVersionAttributes>> {
    // auto-queue-runs false: the run is created by the caller, with its options.
    return (
      await this.client.create<ConfigurationVersionAttributes>(
        `/workspaces/${enc(workspaceId)}/configuration-versions`,
        'configuration-versions',
        { 'auto-queue-runs': false },
      )
    ).data;
  }

  /** PUTs a configuration archive (tar.gz) to a version's signed upload URL. */
  async upload(uploadUrl: string, archive: Buffer): Promise<void> {
    await this.client.raw(uploadUrl, { method: 'PUT', body: archive, contentType: 'application/octet-stream' });
  }

  createRun(
    workspaceId: string,
    configurationVersionId: string,
    options: ExecutedRunOptions,
  ): Promise<SingleResult<RunAttributes>> {
    return this.client.create<RunAttributes>(
      '/runs',
      'runs',
      { ...options },
      {
        workspace: { data: { type: 'workspaces', id: workspaceId } },
        'configuration-version': { data: { type: 'configuration-versions', id: configurationVersionId } },
      },
    );
  }

  getRun(id: string): Promise<SingleResult<RunAttributes>> {
    return this.client.get<RunAttributes>(`/runs/${enc(id)}`);
  }

  /**
   * A page of a workspace's runs, with the plans and applies of executed ones (their counts);
   * `filter`: only runs in one of its statuses and of one of its operations.
   */
  listRuns(
    workspaceId: string,
    page: PageOptions = {},
    filter: RunListFilter = {},
  ): Promise<ListResult<RunAttributes>> {
    return this.client.list<RunAttributes>(`/workspaces/${enc(workspaceId)}/runs`, runListQuery(filter), page);
  }

  /** Every run of a workspace (or the first `limit`), with the plans and applies of executed ones. */
  listAllRuns(workspaceId: string, options: ListAllOptions = {}, filter: RunListFilter = {}) {
    return this.client.listPages<RunAttributes>(`/workspaces/${enc(workspaceId)}/runs`, runListQuery(filter), options);
  }

  /** A page of the runs of an organization's workspaces (those the caller may read), with their workspaces. */
  listOrganizationRuns(
    organization: string,
    page: PageOptions = {},
    filter: RunListFilter = {},
  ): Promise<ListResult<RunAttributes>> {
    return this.client.list<RunAttributes>(
      `/organizations/${enc(organization)}/runs`,
      runListQuery(filter, 'workspace'),
      page,
    );
  }

  /** Every run of an organization's workspaces (or the first `limit`), with their workspaces. */
  listAllOrganizationRuns(organization: string, options: ListAllOptions = {}, filter: RunListFilter = {}) {
    return this.client.listPages<RunAttributes>(
      `/organizations/${enc(organization)}/runs`,
      runListQuery(filter, 'workspace'),
      options,
    );
  }

  /** The plan or apply of an executed run (`plan-…`/`apply-…` named after the run). */
  async phase(runId: string, phase: PhaseName): Promise<Resource<PhaseAttributes>> {
    const id = `${phase}-${runId.replace(/^run-/, '')}`;
    return (await this.client.get<PhaseAttributes>(`/${phase === 'plan' ? 'plans' : 'applies'}/${enc(id)}`)).data;
  }

  async act(runId: string, action: RunActionName, comment?: string): Promise<void> {
    await this.client.request('POST', `/runs/${enc(runId)}/actions/${action}`, {
      body: comment === undefined ? undefined : { comment },
    });
  }

  /** HCP's force-execute: the runs ahead of a pending run are discarded, so that it plans now. */
  async forceExecute(runId: string): Promise<void> {
    await this.client.request('POST', `/runs/${enc(runId)}/actions/force-execute`);
  }

  /** Bytes of a log from `offset` (at most `limit`), read through its signed URL. */
  async readLog(logUrl: string, offset: number, limit = 65536): Promise<Buffer> {
    const url = new URL(logUrl);
    url.searchParams.set('offset', String(offset));
    url.searchParams.set('limit', String(limit));
    const res = await this.client.raw(url.toString(), { method: 'GET' });
    return Buffer.from(await res.arrayBuffer());
  }
}

/** What a run list keeps (`filter[status]`, `filter[operation]`); empty lists keep everything. */
export interface RunListFilter {
  statuses?: string[];
  operations?: string[];
}

const joined = (values: string[] = []) => (values.length > 0 ? values.join(',') : undefined);

/** The query of a run list: the phases of executed runs (and `more` includes), and the filter. */
function runListQuery(filter: RunListFilter, more?: string): Record<string, string | undefined> {
  return {
    include: more ? `plan,apply,${more}` : 'plan,apply',
    'filter[status]': joined(filter.statuses),
    'filter[operation]': joined(filter.operations),
  };
}
