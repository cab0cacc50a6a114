import { Flags } from '../oclif.js';

/** The organization-level permissions of a team, as flags. */
export const teamAccessFlags = {
  'manage-projects': Flags.boolean({ description: 'may create and manage all projects', allowNo: true }),
  'manage-workspaces': Flags.boolean({ description: 'may create and manage all workspaces', allowNo: true }),
  'read-projects': Flags.boolean({ description: 'may read all projects', allowNo: true }),
  'read-workspaces': Flags.boolean({ description: 'may read all workspaces', allowNo: true }),
};

export function organizationAccess(flags: Record<string, unknown>): Record<string, boolean> | undefined {
  const out: Record<string, boolean> = {};
  for (const key of Object.keys(teamAccessFlags)) if (typeof flags[key] === 'boolean') out[key] = flags[key];
  return Object.keys(out).length > 0 ? out : undefined;
}
