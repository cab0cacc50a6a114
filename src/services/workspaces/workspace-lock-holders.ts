import { BerthError } from '../../domain/common/errors.js';
import type { Run } from '../../domain/runs/run.js';
import type { Team, TeamName } from '../../domain/teams/team.js';
import type { UserView } from '../../domain/identity/user.js';
import type { Workspace } from '../../domain/workspaces/workspace.js';
import type { ServiceContext } from '../context.js';
import { getRun } from '../runs/runs.js';
import { getTeam } from '../teams/teams.js';
import { seesUserDetails, usersByIds } from '../identity/users.js';

/** Who holds the workspaces' locks (`include=locked_by`), as the caller may see them. */
export interface LockHolders {
  users: UserView[];
  /** Teams the caller may see. */
  teams: Team[];
  /** Teams the caller may not see otherwise: a reader of a workspace may still learn who locked it. */
  teamNames: TeamName[];
  runs: Run[];
}

const isNotFound = (err: unknown) => err instanceof BerthError && err.status === 404;

/**
 * The holders of the locks of workspaces the caller has read. Anyone who may read a workspace may
 * learn the name of who locked it: a user's public face (its details only for itself and site
 * administrators), a team (its name only when the team is secret to the caller), a run.
 */
export async function loadLockHolders(ctx: ServiceContext, workspaces: Workspace[]): Promise<LockHolders> {
  const out: LockHolders = { users: [], teams: [], teamNames: [], runs: [] };
  const ids = (type: 'users' | 'teams' | 'runs') => [
    ...new Set(workspaces.flatMap((w) => (w.lockedBy?.type === type ? [w.lockedBy.id] : []))),
  ];
  out.users = (await usersByIds(ctx.db, ids('users'))).map((user) => ({
    user,
    details: seesUserDetails(ctx, user.id),
  }));
  for (const id of ids('teams')) {
    try {
      out.teams.push(await getTeam(ctx, id));
    } catch (err) {
      if (!isNotFound(err)) throw err;
      const row = await ctx.db
        .selectFrom('teams')
        .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
        .select(['teams.id', 'teams.name', 'organizations.name as organizationName'])
        .where('teams.id', '=', id)
        .executeTakeFirst();
      if (row) out.teamNames.push(row);
    }
  }
  for (const id of ids('runs')) {
    try {
      out.runs.push(await getRun(ctx, id));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return out;
}
