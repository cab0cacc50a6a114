import type { Resource } from '../../client/jsonapi.js';
import type { RetentionPolicyAttributes } from '../../client/resources.js';
import { renderFields, renderTable } from '../output/output.js';
import { inheritedFromId } from '../output/related-names.js';
import { plural } from '../../domain/common/plural.js';

export function sshKeyTable(keys: Resource[]): string {
  return renderTable(keys, [
    { header: 'ID', value: (k) => k.id },
    { header: 'NAME', value: (k) => k.attributes.name },
    { header: 'CREATED', value: (k) => k.attributes['created-at'] },
  ]);
}

export function flatTagTable(tags: Resource[], withCount: boolean): string {
  return renderTable(tags, [
    { header: 'NAME', value: (t) => t.attributes.name },
    { header: 'ID', value: (t) => t.id },
    ...(withCount ? [{ header: 'WORKSPACES', value: (t: Resource) => t.attributes['instance-count'] }] : []),
  ]);
}

/** Effective bindings; inherited rows name their project (`projectNames`: id to name, else the id). */
export function effectiveBindingTable(tags: Resource[], projectNames: Map<string, string> = new Map()): string {
  return renderTable(tags, [
    { header: 'KEY', value: (t) => t.attributes.key },
    { header: 'VALUE', value: (t) => t.attributes.value },
    {
      header: 'SOURCE',
      value: (t) => {
        const from = inheritedFromId(t);
        return from === null ? 'own' : `inherited from ${projectNames.get(from) ?? from}`;
      },
    },
  ]);
}

/** A data retention policy; `workspaceName` names the workspace it is set on (else its id is shown). */
export function retentionFields(p: Resource<RetentionPolicyAttributes>, workspaceName?: string | null): string {
  const target = p.relationships?.target?.data;
  const t = target && !Array.isArray(target) ? target : null;
  const rule =
    p.type === 'data-retention-policy-dont-deletes'
      ? "don't delete"
      : `delete state versions and runs older than ${plural(Number(p.attributes['delete-older-than-n-days']), 'day')}`;
  return renderFields([
    ['ID', p.id],
    ['Policy', rule],
    [
      'Set on',
      t
        ? t.type === 'organizations'
          ? `organization ${t.id}`
          : `workspace ${workspaceName ?? t.id}`
        : 'the site-wide default',
    ],
  ]);
}
