import type { Resource } from '../../client/jsonapi.js';
import { renderFields } from '../output.js';

const ids = (r: Resource, name: string): string[] => {
  const data = r.relationships?.[name]?.data;
  return Array.isArray(data) ? data.map((d) => d.id) : [];
};

/** One agent pool as key-value fields. */
export function agentPoolFields(pool: Resource): string {
  const a = pool.attributes;
  const allowed = ids(pool, 'allowed-workspaces');
  return renderFields([
    ['Name', a.name],
    ['ID', pool.id],
    [
      'Organization-scoped',
      a['organization-scoped'] ? 'yes (every workspace may use it)' : 'no (allowed workspaces only)',
    ],
    ['Allowed workspaces', allowed.length > 0 ? allowed.join(', ') : 'none'],
    ['Workspaces using it', ids(pool, 'workspaces').join(', ') || 'none'],
    ['Created', a['created-at']],
  ]);
}
