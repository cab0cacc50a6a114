import type { Resource } from '../../client/jsonapi.js';
import { relativeTime } from '../output/human-time.js';
import { renderTable } from '../output/output.js';

/** An agent pool's tokens: description first (what people name them by), never the secret. */
export function agentTokenTable(list: Resource[]): string {
  return renderTable(list, [
    { header: 'DESCRIPTION', value: (t) => t.attributes.description ?? '' },
    { header: 'ID', value: (t) => t.id },
    { header: 'CREATED', value: (t) => relativeTime(String(t.attributes['created-at'])) },
    {
      header: 'LAST USED',
      value: (t) => {
        const used = t.attributes['last-used-at'];
        return typeof used === 'string' ? relativeTime(used) : 'never';
      },
    },
  ]);
}

/** An agent pool's agents: name, status, address, last ping. */
export function agentTable(list: Resource[]): string {
  return renderTable(list, [
    { header: 'NAME', value: (a) => a.attributes.name },
    { header: 'STATUS', value: (a) => a.attributes.status },
    { header: 'IP ADDRESS', value: (a) => a.attributes['ip-address'] ?? '' },
    { header: 'LAST PING', value: (a) => relativeTime(String(a.attributes['last-ping-at'])) },
  ]);
}
