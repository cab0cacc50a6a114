import type { Resource } from '../../client/jsonapi.js';
import { renderFields } from '../output/output.js';

const ids = (r: Resource, name: string): string[] => {
  const data = r.relationships?.[name]?.data;
  return Array.isArray(data) ? data.map((d) => d.id) : [];
};

/** One agent pool as key-value fields; `workspaceNames` (id to name) names its workspaces. */
export function agentPoolFields(pool: Resource, workspaceNames: Map<string, string> = new Map()): string {
  const a = pool.attributes;
  const named = (name: string) => ids(pool, name).map((id) => workspaceNames.get(id) ?? id);
  const allowed = named('allowed-workspaces');
  return renderFields([
    ['Name', a.name],
    ['ID', pool.id],
    [
      'Organization-scoped',
      a['organization-scoped'] ? 'yes (every workspace may use it)' : 'no (allowed workspaces only)',
    ],
    ['Allowed workspaces', allowed.length > 0 ? allowed.join(', ') : 'none'],
    ['Workspaces using it', named('workspaces').join(', ') || 'none'],
    ['Created', a['created-at']],
  ]);
}
