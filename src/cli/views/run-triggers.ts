import type { Resource } from '../../client/jsonapi.js';
import type { RunTriggerAttributes } from '../../client/run-triggers.js';
import { humanTime } from '../output/human-time.js';
import { renderTable } from '../output/output.js';

/** Run triggers as SOURCE → TARGET rows: the source's applies queue runs in the target. */
export function runTriggerTable(triggers: Resource<RunTriggerAttributes>[]): string {
  return renderTable(triggers, [
    { header: 'SOURCE', value: (t) => t.attributes['sourceable-name'] },
    { header: 'TARGET', value: (t) => t.attributes['workspace-name'] },
    { header: 'ID', value: (t) => t.id },
    { header: 'CREATED', value: (t) => humanTime(t.attributes['created-at']) },
  ]);
}
