import { Hono } from 'hono';
import { parseTeamAttributes } from '../../../domain/teams/team.js';
import * as teams from '../../../services/teams/teams.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam } from '../../query.js';
import { serializeTeam, serializeTeamUsers } from '../../serializers/team.js';
import type { Team } from '../../../domain/teams/team.js';
import type { Context } from 'hono';

/** `include` values of team documents; `organization-memberships` is accepted and adds nothing yet. */
const INCLUDES = ['users', 'organization_memberships'] as const;

function includedOf(c: Context<AppEnv>, teams: Team[]) {
  const include = includesOf(c, INCLUDES);
  return include.has('users') ? teams.flatMap(serializeTeamUsers) : [];
}

/** `filter[names]`: exact team names, repeated or comma-separated; undefined when not given. */
function namesFilter(c: Context<AppEnv>): string[] | undefined {
  const raw = c.req.queries('filter[names]');
  if (raw === undefined) return undefined;
  const names = raw.flatMap((v) => v.split(',')).filter((n) => n !== '');
  return names.length > 0 ? names : undefined;
}
import { sendTeamWithMembers } from './team-members.js';

export function teamRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/organizations/:org/teams', async (c) => {
    const paged = await teams.listTeams(c.get('ctx'), c.req.param('org'), pageOf(c), {
      q: queryParam(c, 'q'),
      names: namesFilter(c),
    });
    return sendCollection(c, paged, serializeTeam, includedOf(c, paged.items));
  });
  r.post('/organizations/:org/teams', async (c) => {
    const input = parseTeamAttributes((await readResource(c, 'teams')).attributes, 'create');
    return sendResource(c, serializeTeam(await teams.createTeam(c.get('ctx'), c.req.param('org'), input)), {
      status: 201,
    });
  });
  r.get('/teams/:id', async (c) => sendTeamWithMembers(c, await teams.getTeam(c.get('ctx'), c.req.param('id'))));
  r.patch('/teams/:id', async (c) => {
    const input = parseTeamAttributes((await readResource(c, 'teams')).attributes, 'update');
    return sendResource(c, serializeTeam(await teams.updateTeam(c.get('ctx'), c.req.param('id'), input)));
  });
  r.delete('/teams/:id', async (c) => {
    await teams.deleteTeam(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  return r;
}
