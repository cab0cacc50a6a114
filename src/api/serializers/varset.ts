import type { Varset, VarsetVariable } from '../../domain/variables/varset.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

const many = (type: string, ids: string[]) => ({ data: ids.map((id) => ({ id, type })) });

/** A variable set: its attributes, its organization, and the identifiers of its vars, workspaces and projects. */
export function serializeVarset(s: Varset): ResourceObject {
  const self = `${API_PREFIX}/varsets/${s.id}`;
  return {
    id: s.id,
    type: 'varsets',
    attributes: {
      name: s.name,
      description: s.description,
      global: s.global,
      priority: s.priority,
      'updated-at': s.updatedAt,
      'var-count': s.varCount,
      'workspace-count': s.workspaceCount,
      'project-count': s.projectCount,
    },
    relationships: {
      organization: toOne(
        'organizations',
        s.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(s.organizationName)}`,
      ),
      // Who owns the set (HCP Terraform's polymorphic `parent`): its project, else its organization.
      parent:
        s.parentProjectId !== null
          ? toOne('projects', s.parentProjectId, `${API_PREFIX}/projects/${s.parentProjectId}`)
          : toOne(
              'organizations',
              s.organizationName,
              `${API_PREFIX}/organizations/${encodeURIComponent(s.organizationName)}`,
            ),
      vars: { ...many('vars', s.variableIds), links: { related: `${self}/relationships/vars` } },
      workspaces: many('workspaces', s.workspaceIds),
      projects: many('projects', s.projectIds),
      // berth has no stacks: a set applies to none.
      stacks: { data: [] },
    },
    links: { self },
  };
}

/** A variable of a set; a sensitive one's value is null (write-only). */
export function serializeVarsetVariable(v: VarsetVariable): ResourceObject {
  return {
    id: v.id,
    type: 'vars',
    attributes: {
      key: v.key,
      value: v.sensitive ? null : v.value,
      description: v.description,
      category: v.category,
      hcl: v.hcl,
      sensitive: v.sensitive,
      'version-id': v.versionId,
      'created-at': v.createdAt,
    },
    relationships: {
      varset: {
        data: { id: v.varsetId, type: 'varsets' },
        links: { related: `${API_PREFIX}/varsets/${v.varsetId}` },
      },
    },
    links: { self: `${API_PREFIX}/varsets/${v.varsetId}/relationships/vars/${v.id}` },
  };
}
