import type { Resource } from '../../client/jsonapi.js';
import { renderTable } from '../output/output.js';

export function reservedTagKeyTable(keys: Resource[]): string {
  return renderTable(keys, [
    { header: 'KEY', value: (k) => k.attributes.key },
    { header: 'ID', value: (k) => k.id },
    { header: 'OVERRIDES', value: (k) => (k.attributes['disable-overrides'] ? 'disabled' : 'allowed') },
    { header: 'CREATED', value: (k) => k.attributes['created-at'] },
  ]);
}
