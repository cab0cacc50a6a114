import type { Resource } from '../../client/jsonapi.js';
import type { RunAttributes } from '../../client/resources.js';
import { humanDuration } from '../human-time.js';
import { renderFields, renderTable } from '../output.js';

const span = (r: Resource<RunAttributes>, from: string, to: string) => {
  const t = r.attributes['status-timestamps'] ?? {};
  return t[from] && t[to] ? humanDuration(Date.parse(t[to]) - Date.parse(t[from])) : null;
};

export function runTable(runs: Resource<RunAttributes>[]): string {
  return renderTable(runs, [
    { header: 'ID', value: (r) => r.id },
    { header: 'STATUS', value: (r) => r.attributes.status },
    { header: 'PLAN', value: (r) => span(r, 'planning-at', 'planned-at') },
    { header: 'APPLY', value: (r) => span(r, 'applying-at', 'applied-at') },
    { header: 'MESSAGE', value: (r) => r.attributes.message },
    { header: 'CREATED', value: (r) => r.attributes['created-at'] },
  ]);
}

/** A run; `workspaceName` names its workspace (else its id is shown). */
export function runFields(r: Resource<RunAttributes>, workspaceName?: string): string {
  const ws = r.relationships?.workspace?.data;
  return renderFields([
    ['ID', r.id],
    ['Status', r.attributes.status],
    ['Workspace', workspaceName ?? (ws && !Array.isArray(ws) ? ws.id : null)],
    ['Message', r.attributes.message],
    ['Destroy', r.attributes['is-destroy'] ? 'yes' : 'no'],
    ['Plan duration', span(r, 'planning-at', 'planned-at')],
    ['Apply duration', span(r, 'applying-at', 'applied-at')],
    ['Error', r.attributes['error-message']],
    ['Policy check failed', r.attributes['policy-check-failed'] ? 'yes' : 'no'],
    ['Created', r.attributes['created-at']],
  ]);
}
