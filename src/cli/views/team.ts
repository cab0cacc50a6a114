import type { Resource } from '../../client/jsonapi.js';
import { renderFields, renderTable } from '../output.js';

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

export function teamFields(t: Resource): string {
  return renderFields([
    ['ID', t.id],
    ['Name', t.attributes.name],
    ['Visibility', t.attributes.visibility],
    ['Organization access', t.attributes['is-owners'] ? 'owners (everything)' : access(t)],
    ['SSO team id', t.attributes['sso-team-id'] ?? ''],
    ['Member token management', t.attributes['allow-member-token-management'] ? 'allowed' : 'not allowed'],
    ['Members', (t as Resource & { meta?: { usernames?: string[] } }).meta?.usernames ?? []],
    ['Created', t.attributes['created-at']],
  ]);
}
