import type { Resource } from '../../client/jsonapi.js';
import { renderTable } from '../output/output.js';

export function userTable(users: Resource[]): string {
  return renderTable(users, [
    { header: 'ID', value: (u) => u.id },
    { header: 'USERNAME', value: (u) => u.attributes.username },
    { header: 'EMAIL', value: (u) => u.attributes.email },
    { header: 'SITE ADMIN', value: (u) => (u.attributes['is-site-admin'] ? 'yes' : 'no') },
  ]);
}
