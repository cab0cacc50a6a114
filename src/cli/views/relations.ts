import type { Resource } from '../../client/jsonapi.js';
import type { RetentionPolicyAttributes } from '../../client/resources.js';
import { renderFields, renderTable } from '../output.js';

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

/** Effective bindings; inherited rows name their project. */
export function effectiveBindingTable(tags: Resource[]): string {
  return renderTable(tags, [
    { header: 'KEY', value: (t) => t.attributes.key },
    { header: 'VALUE', value: (t) => t.attributes.value },
    {
      header: 'SOURCE',
      value: (t) =>
        t.links?.['inherited-from'] ? `inherited from ${t.links['inherited-from'].replace(/^.*\//, '')}` : 'own',
    },
  ]);
}

export function retentionFields(p: Resource<RetentionPolicyAttributes>): string {
  const target = p.relationships?.target?.data;
  const t = target && !Array.isArray(target) ? target : null;
  const rule =
    p.type === 'data-retention-policy-dont-deletes'
      ? "don't delete"
      : `delete state versions and runs older than ${p.attributes['delete-older-than-n-days']} days`;
  return renderFields([
    ['ID', p.id],
    ['Policy', rule],
    ['Set on', t ? `${t.type === 'organizations' ? 'organization' : 'workspace'} ${t.id}` : 'the site-wide default'],
  ]);
}
