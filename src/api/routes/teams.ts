import { Hono } from 'hono';
import { BerthError } from '../../domain/errors.js';
import { parseTeamAttributes } from '../../domain/team.js';
import * as teams from '../../services/teams.js';
import { createTeamToken, deleteTeamToken } from '../../services/tokens.js';
import { readJson, readResource } from '../body.js';
import { sendCollection, sendResource } from '../documents.js';
import type { AppEnv } from '../env.js';
import { pageOf, queryParam } from '../query.js';
import { serializeTeam } from '../serializers/team.js';
import { serializeToken } from '../serializers/user.js';
import { descriptionOf } from './token-body.js';

/**
 * The membership body names users by username in `id`, as HCP Terraform's
 * `/teams/:id/relationships/users` does: `{"data":[{"type":"users","id":"alice"}]}`.
 */
function usernamesOf(body: Record<string, unknown> | null): string[] {
  const data = body?.data;
  if (!Array.isArray(data) || data.length === 0) {
    throw new BerthError([
      { status: 422, title: 'invalid attribute', detail: 'data must be a non-empty array of users', pointer: '/data' },
    ]);
  }
  return data.map((item, i) => {
    const id = (item as { id?: unknown; type?: unknown })?.id;
    if ((item as { type?: unknown })?.type !== 'users' || typeof id !== 'string' || id === '') {
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'each item must be {"type":"users","id":USERNAME}',
          pointer: `/data/${i}`,
        },
      ]);
    }
    return id;
  });
}

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
  r.get('/teams/:id', async (c) =>
    sendResource(c, serializeTeam(await teams.getTeam(c.get('ctx'), c.req.param('id')))),
  );
  r.patch('/teams/:id', async (c) => {
    const input = parseTeamAttributes((await readResource(c, 'teams')).attributes, 'update');
    return sendResource(c, serializeTeam(await teams.updateTeam(c.get('ctx'), c.req.param('id'), input)));
  });
  r.delete('/teams/:id', async (c) => {
    await teams.deleteTeam(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  r.post('/teams/:id/relationships/users', async (c) => {
    await teams.changeMembers(c.get('ctx'), c.req.param('id'), usernamesOf(await readJson(c)), 'add');
    return c.body(null, 204);
  });
  r.delete('/teams/:id/relationships/users', async (c) => {
    await teams.changeMembers(c.get('ctx'), c.req.param('id'), usernamesOf(await readJson(c)), 'remove');
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
