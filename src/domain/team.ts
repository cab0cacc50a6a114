import * as v from 'valibot';
import { bool, checkAttributes, oneOf, opt, str } from './attributes.js';
import { Problems } from './errors.js';

export const OWNERS_TEAM = 'owners';
export const TEAM_VISIBILITIES = ['secret', 'organization'] as const;

export interface OrganizationAccess {
  manageProjects: boolean;
  manageWorkspaces: boolean;
  readProjects: boolean;
  readWorkspaces: boolean;
}

export interface Team {
  id: string;
  organizationName: string;
  name: string;
  isOwners: boolean;
  visibility: string;
  organizationAccess: OrganizationAccess;
  userIds: string[];
  usernames: string[];
  createdAt: string;
  permissions: {
    canUpdateMembership: boolean;
    canDestroy: boolean;
    canUpdateOrganizationAccess: boolean;
    canUpdateApiToken: boolean;
  };
}

export interface TeamInput {
  name?: string;
  visibility?: string;
  organizationAccess: Partial<OrganizationAccess>;
}

const access = v.looseObject({
  'manage-projects': opt(bool()),
  'manage-workspaces': opt(bool()),
  'read-projects': opt(bool()),
  'read-workspaces': opt(bool()),
});
const schema = v.looseObject({
  name: opt(str()),
  visibility: opt(oneOf(TEAM_VISIBILITIES)),
  'organization-access': opt(access),
});

const TEAM_NAME = /^[A-Za-z0-9_.-]+$/;

export function parseTeamAttributes(attributes: unknown, mode: 'create' | 'update'): TeamInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  if (a.name === undefined) {
    if (mode === 'create') problems.add('/data/attributes/name', "Name can't be blank");
  } else if (!TEAM_NAME.test(a.name) || a.name.length > 64) {
    problems.add('/data/attributes/name', 'Name may only contain letters, numbers, "-", "_" and "." (at most 64)');
  }
  problems.throwIfAny();
  const oa = a['organization-access'] ?? {};
  return {
    name: a.name,
    visibility: a.visibility,
    organizationAccess: {
      manageProjects: oa['manage-projects'],
      manageWorkspaces: oa['manage-workspaces'],
      readProjects: oa['read-projects'],
      readWorkspaces: oa['read-workspaces'],
    },
  };
}
