import type { BerthClient, ListAllOptions } from './client.js';
import type { Resource } from './jsonapi.js';

/** A `run-triggers` resource's attributes (HCP Terraform's Run Triggers API). */
export interface RunTriggerAttributes {
  'workspace-name': string;
  'sourceable-name': string;
  'created-at': string;
  [key: string]: unknown;
}

export type RunTriggerDirection = 'inbound' | 'outbound';

/** A workspace's run triggers: its sources (inbound) and the workspaces it triggers (outbound). */
export class RunTriggersClient {
  constructor(private readonly client: BerthClient) {}

  list(
    workspaceId: string,
    direction: RunTriggerDirection,
    options: ListAllOptions = {},
  ): Promise<Resource<RunTriggerAttributes>[]> {
    return this.client.listAll<RunTriggerAttributes>(
      `/workspaces/${encodeURIComponent(workspaceId)}/run-triggers`,
      { 'filter[run-trigger][type]': direction },
      options,
    );
  }

  /** `sourceId`'s applies queue runs in `workspaceId`. */
  async create(workspaceId: string, sourceId: string): Promise<Resource<RunTriggerAttributes>> {
    const res = await this.client.request<{ data: Resource<RunTriggerAttributes> }>(
      'POST',
      `/workspaces/${encodeURIComponent(workspaceId)}/run-triggers`,
      {
        body: {
          data: { type: 'run-triggers', relationships: { sourceable: { data: { type: 'workspaces', id: sourceId } } } },
        },
      },
    );
    return res.body!.data;
  }

  async delete(id: string): Promise<void> {
    await this.client.delete(`/run-triggers/${encodeURIComponent(id)}`);
  }
}

/** The id of the trigger's other end, seen from the workspace listed (its source when inbound). */
export function otherEnd(
  t: Resource<RunTriggerAttributes>,
  direction: RunTriggerDirection,
): { id: string; name: string } {
  const rel = t.relationships?.[direction === 'inbound' ? 'sourceable' : 'workspace']?.data;
  const id = rel && !Array.isArray(rel) ? rel.id : '';
  return { id, name: direction === 'inbound' ? t.attributes['sourceable-name'] : t.attributes['workspace-name'] };
}
