import type { Resource } from '../../client/jsonapi.js';
import { renderTable } from '../output/output.js';

/** One line per audit event: when, who, what, on what; workspaces by name where an event names them. */
export function auditTable(events: Resource[]): string {
  const a = (e: Resource) => e.attributes;
  const workspaceNames = new Map<string, string>();
  for (const e of events) {
    const t = a(e);
    if (t['target-type'] === 'workspaces' && typeof t['target-id'] === 'string' && typeof t['target-name'] === 'string')
      workspaceNames.set(t['target-id'], t['target-name']);
  }
  return renderTable(events, [
    { header: 'TIME', value: (e) => a(e).timestamp },
    { header: 'ACTION', value: (e) => a(e).action },
    {
      header: 'ACTOR',
      value: (e) => [a(e)['actor-kind'], a(e)['actor-name'] ?? a(e)['actor-id']].filter(Boolean).join(' '),
    },
    {
      header: 'TARGET',
      value: (e) => [a(e)['target-type'], a(e)['target-name'] ?? a(e)['target-id']].filter(Boolean).join(' '),
    },
    { header: 'TARGET_ID', value: (e) => a(e)['target-id'] },
    {
      header: 'WORKSPACE',
      value: (e) => {
        const id = a(e)['workspace-id'];
        return typeof id === 'string' ? (workspaceNames.get(id) ?? id) : null;
      },
    },
    { header: 'REQUEST_ID', value: (e) => a(e)['request-id'] },
    { header: 'ID', value: (e) => e.id },
  ]);
}
