import type { BerthClient, ListAllOptions, PageOptions, RequestOptions } from './client.js';
import type { ListResult, Resource } from './jsonapi.js';

/** Filters of the audit trail as the API names them (`filter[since]`, ...). */
export interface AuditListFilters {
  since?: string;
  actor?: string;
  workspaceId?: string;
}

function query(f: AuditListFilters): RequestOptions['query'] {
  return { 'filter[since]': f.since, 'filter[actor]': f.actor, 'filter[workspace]': f.workspaceId };
}

/** The audit trail of an organization (owners and its organization token only). */
export class AuditTrailClient {
  constructor(private readonly client: BerthClient) {}

  private path(organization: string): string {
    return `/organizations/${encodeURIComponent(organization)}/audit-trail`;
  }

  list(organization: string, filters: AuditListFilters = {}, page: PageOptions = {}): Promise<ListResult> {
    return this.client.list(this.path(organization), query(filters), page);
  }

  listAll(organization: string, filters: AuditListFilters = {}, options: ListAllOptions = {}): Promise<Resource[]> {
    return this.client.listAll(this.path(organization), query(filters), options);
  }
}
