import type { Resource } from '../../client/jsonapi.js';
import type { ProjectAttributes, TagBindingAttributes } from '../../client/resources.js';
import { renderFields, renderTable } from '../output/output.js';
import { inheritedFromId } from '../output/related-names.js';
import { nameOf } from './workspace.js';

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

/** A project; `included` may hold its default agent pool, to show its name. */
export function projectFields(
  p: Resource<ProjectAttributes>,
  tags?: Resource<TagBindingAttributes>[],
  included: Resource[] = [],
): string {
  const a = p.attributes;
  const org = p.relationships?.organization?.data;
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
    ['Default agent pool', nameOf(p, 'default-agent-pool', included)],
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

/** Effective bindings of a project; `projectNames` (id to name) names where each is inherited from. */
export function effectiveTagTable(tags: Resource[], projectNames: Map<string, string> = new Map()): string {
  return renderTable(tags, [
    { header: 'KEY', value: (t) => t.attributes.key },
    { header: 'VALUE', value: (t) => t.attributes.value },
    {
      header: 'INHERITED FROM',
      value: (t) => {
        const from = inheritedFromId(t);
        return from === null ? null : (projectNames.get(from) ?? from);
      },
    },
  ]);
}
