import type { Resource } from '../../client/jsonapi.js';
import { renderFields, renderTable } from '../output/output.js';
import type { TeamGrant } from '../teams/team-grants.js';

const access = (t: Resource) =>
  Object.entries(t.attributes['organization-access'] ?? {})
    .filter(([, v]) => v === true)
    .map(([k]) => k);

export function teamTable(teams: Resource[]): string {
  return renderTable(teams, [
    { header: 'ID', value: (t) => t.id },
    { header: 'NAME', value: (t) => t.attributes.name },
    { header: 'MEMBERS', value: (t) => t.attributes['users-count'] },
    { header: 'ORGANIZATION ACCESS', value: (t) => (t.attributes['is-owners'] ? 'owners (everything)' : access(t)) },
  ]);
}

/** A team for a person: with `grants`, its project and workspace access by name (`web (workspace): write`). */
export function teamFields(t: Resource, grants?: TeamGrant[]): string {
  return renderFields([
    ['ID', t.id],
    ['Name', t.attributes.name],
    ['Visibility', t.attributes.visibility],
    ['Organization access', t.attributes['is-owners'] ? 'owners (everything)' : access(t)],
    ...(grants === undefined
      ? []
      : ([
          ['Project access', grants.filter((g) => g.kind === 'project').map((g) => `${g.name}: ${g.access}`)],
          ['Workspace access', grants.filter((g) => g.kind === 'workspace').map((g) => `${g.name}: ${g.access}`)],
        ] as [string, unknown][])),
    ['SSO team id', t.attributes['sso-team-id'] ?? ''],
    ['Member token management', t.attributes['allow-member-token-management'] ? 'allowed' : 'not allowed'],
    ['Members', (t as Resource & { meta?: { usernames?: string[] } }).meta?.usernames ?? []],
    ['Created', t.attributes['created-at']],
  ]);
}
