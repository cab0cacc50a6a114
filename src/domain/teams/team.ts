import * as v from 'valibot';
import { bool, checkAttributes, nullable, oneOf, opt, str } from '../common/attributes.js';
import { Problems } from '../common/errors.js';
import { tooLongDetail } from '../common/limits.js';
import { charLength } from '../common/text.js';

export const OWNERS_TEAM = 'owners';
export const TEAM_VISIBILITIES = ['secret', 'organization'] as const;

/**
 * Every flag of a team's `organization-access`, as HCP Terraform names them. Each is stored in a
 * column of the same name with underscores. Some grant permissions berth enforces (see
 * domain/permissions/policy.ts); the others name features berth lacks and are stored and read back.
 */
export const ORGANIZATION_ACCESS_FLAGS = [
  'manage-policies',
  'manage-policy-overrides',
  'manage-workspaces',
  'manage-vcs-settings',
  'manage-providers',
  'manage-modules',
  'manage-run-tasks',
  'manage-projects',
  'read-workspaces',
  'read-projects',
  'manage-membership',
  'manage-teams',
  'manage-organization-access',
  'access-secret-teams',
  'manage-agent-pools',
] as const;
export type OrganizationAccessFlag = (typeof ORGANIZATION_ACCESS_FLAGS)[number];
export type OrganizationAccess = Record<OrganizationAccessFlag, boolean>;

/** The column a flag is stored in. */
export function accessColumn(flag: OrganizationAccessFlag): string {
  return flag.replace(/-/g, '_');
}

/** Every flag set: what the owners team has. */
export const ALL_ORGANIZATION_ACCESS = Object.fromEntries(
  ORGANIZATION_ACCESS_FLAGS.map((f) => [f, true]),
) as OrganizationAccess;

/** A team seen by a caller that may not see the team itself, where it holds something the caller reads: its name. */
export interface TeamName {
  id: string;
  name: string;
  organizationName: string;
}

export interface Team {
  id: string;
  organizationName: string;
  name: string;
  isOwners: boolean;
  visibility: string;
  ssoTeamId: string | null;
  allowMemberTokenManagement: boolean;
  organizationAccess: OrganizationAccess;
  userIds: string[];
  usernames: string[];
  createdAt: string;
  permissions: {
    canUpdateMembership: boolean;
    canDestroy: boolean;
    canUpdateOrganizationAccess: boolean;
    canUpdateApiToken: boolean;
    canUpdateVisibility: boolean;
    canUpdateName: boolean;
  };
}

export interface TeamInput {
  name?: string;
  visibility?: string;
  /** `null` clears it. */
  ssoTeamId?: string | null;
  allowMemberTokenManagement?: boolean;
  /** Only the flags the request names. */
  organizationAccess: Partial<OrganizationAccess>;
}

const access = v.looseObject(
  Object.fromEntries(ORGANIZATION_ACCESS_FLAGS.map((f) => [f, opt(bool())])) as Record<
    OrganizationAccessFlag,
    v.OptionalSchema<v.BooleanSchema<string>, undefined>
  >,
);
const schema = v.looseObject({
  name: opt(str()),
  visibility: opt(oneOf(TEAM_VISIBILITIES)),
  'sso-team-id': nullable(str()),
  'allow-member-token-management': opt(bool()),
  'organization-access': opt(access),
});

/**
 * Letters, digits, spaces, `-`, `_`, `.` and `/`; no leading or trailing space; at most 64
 * characters. HCP Terraform documents letters, digits, `-` and `_` but takes more: the tfe
 * provider's acceptance tests, run against it, create `team name with spaces` and
 * `team/name/with/slashes`. No route addresses a team by name (names travel in
 * `filter[names]`, URL-encoded), so a `/` is safe.
 */
const TEAM_NAME = /^[A-Za-z0-9_./-]([A-Za-z0-9 _./-]*[A-Za-z0-9_./-])?$/;
export const TEAM_NAME_DETAIL =
  'Name may only contain letters, numbers, spaces, "-", "_", "." and "/" (at most 64, no leading or trailing space)';
const SSO_TEAM_ID_MAX = 255;

export function parseTeamAttributes(attributes: unknown, mode: 'create' | 'update'): TeamInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  if (a.name === undefined) {
    if (mode === 'create') problems.add('/data/attributes/name', "Name can't be blank");
  } else if (!TEAM_NAME.test(a.name) || a.name.length > 64) {
    problems.add('/data/attributes/name', TEAM_NAME_DETAIL);
  }
  const sso = a['sso-team-id'];
  if (typeof sso === 'string' && charLength(sso) > SSO_TEAM_ID_MAX)
    problems.add('/data/attributes/sso-team-id', tooLongDetail('Sso team id', SSO_TEAM_ID_MAX));
  problems.throwIfAny();
  const oa = (a['organization-access'] ?? {}) as Partial<Record<OrganizationAccessFlag, boolean | undefined>>;
  const organizationAccess: Partial<OrganizationAccess> = {};
  for (const f of ORGANIZATION_ACCESS_FLAGS) if (oa[f] !== undefined) organizationAccess[f] = oa[f];
  return {
    name: a.name,
    visibility: a.visibility,
    // An empty sso-team-id means none, as an absent one does.
    ssoTeamId: sso === undefined ? undefined : sso === '' ? null : sso,
    allowMemberTokenManagement: a['allow-member-token-management'],
    organizationAccess,
  };
}
