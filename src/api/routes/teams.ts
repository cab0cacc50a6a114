import { Hono } from 'hono';
import { parseTeamAttributes } from '../../domain/team.js';
import * as teams from '../../services/teams.js';
import { createTeamToken, deleteTeamToken } from '../../services/tokens.js';
import { readJson, readResource } from '../body.js';
import { sendCollection, sendResource } from '../documents.js';
import type { AppEnv } from '../env.js';
import { pageOf, queryParam } from '../query.js';
import { serializeTeam } from '../serializers/team.js';
import { serializeToken } from '../serializers/user.js';
import { sendTeamWithMembers } from './team-members.js';
import { descriptionOf } from './token-body.js';

export function teamRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/organizations/:org/teams', async (c) => {
    const paged = await teams.listTeams(c.get('ctx'), c.req.param('org'), pageOf(c), queryParam(c, 'q'));
    return sendCollection(c, paged, serializeTeam);
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

  r.post('/teams/:id/authentication-token', async (c) => {
    const token = await createTeamToken(
      c.get('ctx'),
      c.req.param('id'),
      descriptionOf(await readJson(c, { optional: true })),
    );
    return sendResource(c, serializeToken(token), { status: 201 });
  });
  r.delete('/teams/:id/authentication-token', async (c) => {
    await deleteTeamToken(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  return r;
}
