import { Hono } from 'hono';
import { parseTeamProjectAttributes, parseTeamWorkspaceAttributes } from '../../../domain/permissions/access.js';
import { Problems } from '../../../domain/common/errors.js';
import * as access from '../../../services/teams/team-access.js';
import { readResource, type ResourceInput } from '../../body.js';
import { sendCollection, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { pageOf, queryParam } from '../../query.js';
import { serializeTeamProject, serializeTeamWorkspace } from '../../serializers/team-access.js';

/** `relationships.<name>.data.id` of a create request (type checked), else a 422 at its pointer. */
function relationshipIds(input: ResourceInput, names: [string, string][]): string[] {
  const problems = new Problems();
  const ids = names.map(([name, type]) => {
    const rel = input.relationships[name] as { data?: { id?: unknown; type?: unknown } } | undefined;
    const data = rel?.data;
    const pointer = `/data/relationships/${name}/data`;
    if (!data || typeof data !== 'object') {
      problems.add(pointer, `${name} relationship is required`);
      return '';
    }
    if (data.type !== undefined && data.type !== type) problems.add(`${pointer}/type`, `type must be "${type}"`);
    if (typeof data.id !== 'string' || data.id === '') problems.add(`${pointer}/id`, `${name} id is required`);
    return typeof data.id === 'string' ? data.id : '';
  });
  problems.throwIfAny();
  return ids;
}

/** `team-projects` and `team-workspaces`: team access to single projects and workspaces. */
export function teamAccessRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/team-projects', async (c) =>
    sendCollection(
      c,
      await access.listTeamProjects(c.get('ctx'), queryParam(c, 'filter[project][id]'), pageOf(c)),
      serializeTeamProject,
    ),
  );
  r.post('/team-projects', async (c) => {
    const input = await readResource(c, 'team-projects');
    const attrs = parseTeamProjectAttributes(input.attributes, 'create');
    const [teamId, projectId] = relationshipIds(input, [
      ['team', 'teams'],
      ['project', 'projects'],
    ]);
    return sendResource(
      c,
      serializeTeamProject(await access.createTeamProject(c.get('ctx'), teamId, projectId, attrs)),
      { status: 200 },
    );
  });
  r.get('/team-projects/:id', async (c) =>
    sendResource(c, serializeTeamProject(await access.getTeamProject(c.get('ctx'), c.req.param('id')))),
  );
  r.patch('/team-projects/:id', async (c) => {
    const attrs = parseTeamProjectAttributes((await readResource(c, 'team-projects')).attributes, 'update');
    return sendResource(
      c,
      serializeTeamProject(await access.updateTeamProject(c.get('ctx'), c.req.param('id'), attrs)),
    );
  });
  r.delete('/team-projects/:id', async (c) => {
    await access.deleteTeamProject(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  r.get('/team-workspaces', async (c) =>
    sendCollection(
      c,
      await access.listTeamWorkspaces(c.get('ctx'), queryParam(c, 'filter[workspace][id]'), pageOf(c)),
      serializeTeamWorkspace,
    ),
  );
  r.post('/team-workspaces', async (c) => {
    const input = await readResource(c, 'team-workspaces');
    const attrs = parseTeamWorkspaceAttributes(input.attributes, 'create');
    const [teamId, workspaceId] = relationshipIds(input, [
      ['team', 'teams'],
      ['workspace', 'workspaces'],
    ]);
    return sendResource(
      c,
      serializeTeamWorkspace(await access.createTeamWorkspace(c.get('ctx'), teamId, workspaceId, attrs)),
      { status: 200 },
    );
  });
  r.get('/team-workspaces/:id', async (c) =>
    sendResource(c, serializeTeamWorkspace(await access.getTeamWorkspace(c.get('ctx'), c.req.param('id')))),
  );
  r.patch('/team-workspaces/:id', async (c) => {
    const attrs = parseTeamWorkspaceAttributes((await readResource(c, 'team-workspaces')).attributes, 'update');
    return sendResource(
      c,
      serializeTeamWorkspace(await access.updateTeamWorkspace(c.get('ctx'), c.req.param('id'), attrs)),
    );
  });
  r.delete('/team-workspaces/:id', async (c) => {
    await access.deleteTeamWorkspace(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  return r;
}
