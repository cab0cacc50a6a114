import type { Member } from '../../client/memberships.js';
import { renderTable } from '../output/output.js';

export function memberTable(members: Member[]): string {
  return renderTable(members, [
    { header: 'ID', value: (m) => m.membership.id },
    { header: 'USERNAME', value: (m) => m.username },
    { header: 'EMAIL', value: (m) => m.membership.attributes.email },
    { header: 'STATUS', value: (m) => m.membership.attributes.status },
    { header: 'TEAMS', value: (m) => m.teams },
  ]);
}
