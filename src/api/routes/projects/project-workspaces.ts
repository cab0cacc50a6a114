import { Hono } from 'hono';
import { parseWorkspaceIdentifiers } from '../../../domain/workspaces/workspace.js';
import { moveWorkspacesToProject } from '../../../services/projects/project-workspaces.js';
import { readJson } from '../../body.js';
import type { AppEnv } from '../../env.js';

/** `POST /projects/:id/relationships/workspaces`: move workspaces into a project (204). */
export function projectWorkspaceRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/projects/:id/relationships/workspaces', async (c) => {
    const ids = parseWorkspaceIdentifiers(await readJson(c));
    await moveWorkspacesToProject(c.get('ctx'), c.req.param('id'), ids);
    return c.body(null, 204);
  });
  return r;
}
