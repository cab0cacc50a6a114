import type { Resource } from '../../client/jsonapi.js';
import { renderFields, renderTable } from '../output/output.js';
import { nameOf } from './workspace.js';

export function organizationTable(orgs: Resource[]): string {
  return renderTable(orgs, [
    { header: 'NAME', value: (o) => o.attributes.name },
    { header: 'EMAIL', value: (o) => o.attributes.email },
    { header: 'EXECUTION MODE', value: (o) => o.attributes['default-execution-mode'] },
    { header: 'CREATED', value: (o) => o.attributes['created-at'] },
  ]);
}

/** An organization; `included` may hold its default project and agent pool, to show their names. */
export function organizationFields(org: Resource, included: Resource[] = []): string {
  const a = org.attributes;
  return renderFields([
    ['Name', a.name],
    ['Email', a.email],
    ['External ID', a['external-id']],
    ['Default project', nameOf(org, 'default-project', included)],
    ['Default execution mode', a['default-execution-mode']],
    ['Default agent pool', nameOf(org, 'default-agent-pool', included)],
    ['Allow force delete workspaces', a['allow-force-delete-workspaces']],
    ['Assessments enforced', a['assessments-enforced']],
    ['Created', a['created-at']],
  ]);
}
