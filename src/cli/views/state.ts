import type { Resource } from '../../client/jsonapi.js';
import { renderTable } from '../output/output.js';

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

/** A state output's value for a table: JSON, except plain strings; sensitive ones masked unless shown. */
function outputValue(o: Resource): string {
  if (o.attributes.sensitive && o.attributes.value === null) return '(sensitive)';
  const v = o.attributes.value;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function stateOutputTable(outputs: Resource[]): string {
  return renderTable(outputs, [
    { header: 'NAME', value: (o) => o.attributes.name },
    { header: 'TYPE', value: (o) => o.attributes.type },
    { header: 'SENSITIVE', value: (o) => (o.attributes.sensitive ? 'yes' : 'no') },
    { header: 'VALUE', value: outputValue },
  ]);
}
