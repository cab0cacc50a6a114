import type { Resource } from '../../client/jsonapi.js';
import { renderTable } from '../output.js';

/** One line per audit event: when, who, what, on what. */
export function auditTable(events: Resource[]): string {
  const a = (e: Resource) => e.attributes;
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
    { header: 'WORKSPACE', value: (e) => a(e)['workspace-id'] },
    { header: 'REQUEST_ID', value: (e) => a(e)['request-id'] },
    { header: 'ID', value: (e) => e.id },
  ]);
}
