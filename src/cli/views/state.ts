import type { Resource } from '../../client/jsonapi.js';
import { renderTable } from '../output.js';

export function stateVersionTable(versions: Resource[]): string {
  return renderTable(versions, [
    { header: 'ID', value: (s) => s.id },
    { header: 'SERIAL', value: (s) => s.attributes.serial },
    { header: 'STATUS', value: (s) => s.attributes.status },
    { header: 'RESOURCES', value: (s) => s.attributes['resource-count'] },
    {
      header: 'CURRENT',
      value: (s) => (s.attributes.current ? 'yes' : s.attributes.intermediate ? 'intermediate' : 'no'),
    },
    { header: 'CREATED', value: (s) => s.attributes['created-at'] },
  ]);
}
