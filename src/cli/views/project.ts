import type { Resource } from '../../client/jsonapi.js';
import type { ProjectAttributes, TagBindingAttributes } from '../../client/resources.js';
import { renderFields, renderTable } from '../output.js';

export function projectTable(projects: Resource[]): string {
  return renderTable(projects, [
    { header: 'ID', value: (p) => p.id },
    { header: 'NAME', value: (p) => p.attributes.name },
    { header: 'WORKSPACES', value: (p) => p.attributes['workspace-count'] },
    { header: 'AUTO-DESTROY', value: (p) => p.attributes['auto-destroy-activity-duration'] },
    { header: 'DESCRIPTION', value: (p) => p.attributes.description },
  ]);
}

const tagText = (tags: Resource<TagBindingAttributes>[]) =>
  tags.map((t) => (t.attributes.value === '' ? t.attributes.key : `${t.attributes.key}=${t.attributes.value}`));

export function projectFields(p: Resource<ProjectAttributes>, tags?: Resource<TagBindingAttributes>[]): string {
  const a = p.attributes;
  const org = p.relationships?.organization?.data;
  const pool = p.relationships?.['default-agent-pool']?.data;
  const fields: [string, unknown][] = [
    ['ID', p.id],
    ['Name', a.name],
    ['Description', a.description],
    ['Organization', org && !Array.isArray(org) ? org.id : null],
    ['Default project', a['is-default'] ? 'yes' : 'no'],
    ['Auto-destroy after', a['auto-destroy-activity-duration']],
    [
      'Default execution mode',
      `${a['default-execution-mode']}${a['setting-overwrites']?.['default-execution-mode'] ? '' : ' (from the organization)'}`,
    ],
    ['Default agent pool', pool && !Array.isArray(pool) ? pool.id : null],
    ['Workspaces', a['workspace-count']],
    ['Teams', a['team-count']],
    ['Created', a['created-at']],
  ];
  if (tags) fields.push(['Tags', tagText(tags)]);
  return renderFields(fields);
}

export function tagBindingTable(tags: Resource[]): string {
  return renderTable(tags, [
    { header: 'KEY', value: (t) => t.attributes.key },
    { header: 'VALUE', value: (t) => t.attributes.value },
    { header: 'CREATED', value: (t) => t.attributes['created-at'] },
  ]);
}

export function effectiveTagTable(tags: Resource[]): string {
  return renderTable(tags, [
    { header: 'KEY', value: (t) => t.attributes.key },
    { header: 'VALUE', value: (t) => t.attributes.value },
    { header: 'INHERITED FROM', value: (t) => t.links?.['inherited-from']?.replace(/^.*\//, '') ?? null },
  ]);
}
