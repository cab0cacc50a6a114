import type { Resource } from '../../client/jsonapi.js';
import { renderFields, renderTable } from '../output.js';

export function organizationTable(orgs: Resource[]): string {
  return renderTable(orgs, [
    { header: 'NAME', value: (o) => o.attributes.name },
    { header: 'EMAIL', value: (o) => o.attributes.email },
    { header: 'EXECUTION MODE', value: (o) => o.attributes['default-execution-mode'] },
    { header: 'CREATED', value: (o) => o.attributes['created-at'] },
  ]);
}

export function organizationFields(org: Resource): string {
  const a = org.attributes;
  const project = org.relationships?.['default-project']?.data;
  const pool = org.relationships?.['default-agent-pool']?.data;
  return renderFields([
    ['Name', a.name],
    ['Email', a.email],
    ['External ID', a['external-id']],
    ['Default project', project && !Array.isArray(project) ? project.id : null],
    ['Default execution mode', a['default-execution-mode']],
    ['Default agent pool', pool && !Array.isArray(pool) ? pool.id : null],
    ['Allow force delete workspaces', a['allow-force-delete-workspaces']],
    ['Assessments enforced', a['assessments-enforced']],
    ['Created', a['created-at']],
  ]);
}
