import { Flags } from '../oclif.js';

const flag = (description: string) => Flags.boolean({ description, allowNo: true });

/**
 * The organization-level permissions of a team, as flags named like HCP Terraform's
 * `organization-access` keys. berth enforces those of features it has; the others (policies,
 * providers, modules, run tasks) are stored for HCP-compatible clients.
 */
export const teamAccessFlags = {
  'manage-projects': flag('may create and manage all projects'),
  'manage-workspaces': flag('may create and manage all workspaces'),
  'read-projects': flag('may read all projects'),
  'read-workspaces': flag('may read all workspaces'),
  'manage-membership': flag("may add and remove members of the teams it sees (not the owners')"),
  'manage-teams': flag('may create, change and delete teams, their members and tokens'),
  'manage-organization-access': flag("may change teams' organization access"),
  'access-secret-teams': flag('sees secret teams too'),
  'manage-agent-pools': flag('may manage agent pools'),
  'manage-vcs-settings': flag('may manage VCS settings and SSH keys'),
  'manage-policies': flag('may manage policies (stored; berth has no policies)'),
  'manage-policy-overrides': flag('may override policies (stored)'),
  'manage-providers': flag('may manage private providers (stored)'),
  'manage-modules': flag('may manage private modules (stored)'),
  'manage-run-tasks': flag('may manage run tasks (stored)'),
};

/** Team settings besides the organization access. */
export const teamSettingFlags = {
  'sso-team-id': Flags.string({ description: 'identifier of the team in your SSO provider ("" to clear)' }),
  'allow-member-token-management': Flags.boolean({
    description: "let the team's members create and revoke its tokens (on by default)",
    allowNo: true,
  }),
};

export function organizationAccess(flags: Record<string, unknown>): Record<string, boolean> | undefined {
  const out: Record<string, boolean> = {};
  for (const key of Object.keys(teamAccessFlags)) if (typeof flags[key] === 'boolean') out[key] = flags[key];
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The `sso-team-id` and `allow-member-token-management` attributes the flags give (absent ones left out). */
export function teamSettings(flags: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof flags['sso-team-id'] === 'string') out['sso-team-id'] = flags['sso-team-id'] || null;
  if (typeof flags['allow-member-token-management'] === 'boolean')
    out['allow-member-token-management'] = flags['allow-member-token-management'];
  return out;
}
