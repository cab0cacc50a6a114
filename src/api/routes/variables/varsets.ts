import type { Context } from 'hono';
import { Hono } from 'hono';
import type { Paged } from '../../../domain/common/paging.js';
import {
  parseIdentifierList,
  parseVariableInput,
  parseVarsetInput,
  type Varset,
} from '../../../domain/variables/varset.js';
import * as varsetVariables from '../../../services/variables/varset-variables.js';
import * as varsets from '../../../services/variables/varsets.js';
import { readJson, readResource } from '../../body.js';
import { sendCollection, sendList, sendResource, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam } from '../../query.js';
import { serializeProject } from '../../serializers/project.js';
import { serializeVarset, serializeVarsetVariable } from '../../serializers/varset.js';
import { serializeWorkspace } from '../../serializers/workspace.js';

/** `stacks` (go-tfe's VariableSetStacks, which the provider asks for) is accepted and includes nothing: berth has no stacks. */
const INCLUDES = ['vars', 'workspaces', 'projects', 'stacks'] as const;

/**
 * `include=vars` (the set's variables, sensitive values null), `workspaces`, `projects` (the
 * whole resources, each once, those the caller may read), `stacks` (nothing).
 */
async function includedOf(c: Context<AppEnv>, sets: Varset[]): Promise<ResourceObject[]> {
  const include = includesOf(c, INCLUDES);
  const ctx = c.get('ctx');
  const out: ResourceObject[] = [];
  if (include.has('vars')) {
    for (const s of sets) {
      const vars = await varsetVariables.listVarsetVariables(ctx, s.id);
      out.push(...vars.map(serializeVarsetVariable));
    }
  }
  if (include.has('workspaces') || include.has('projects')) {
    const inc = await varsets.varsetIncludes(ctx, sets, {
      workspaces: include.has('workspaces'),
      projects: include.has('projects'),
    });
    out.push(...inc.workspaces.map((ws) => serializeWorkspace(ws, { edition: ctx.settings.edition })));
    out.push(...inc.projects.map((p) => serializeProject(p)));
  }
  return out;
}

async function sendSets(c: Context<AppEnv>, list: Paged<Varset>): Promise<Response> {
  return sendCollection(c, list, serializeVarset, await includedOf(c, list.items));
}

/** Variable sets: the sets, where they apply, and their variables. */
export function varsetRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/organizations/:org/varsets', async (c) => {
    const input = parseVarsetInput(await readResource(c, 'varsets'), 'create');
    const set = await varsets.createVarset(c.get('ctx'), c.req.param('org'), input);
    return sendResource(c, serializeVarset(set), { status: 201 });
  });

  r.get('/organizations/:org/varsets', async (c) =>
    sendSets(
      c,
      await varsets.listOrganizationVarsets(c.get('ctx'), c.req.param('org'), pageOf(c), { q: queryParam(c, 'q') }),
    ),
  );
  r.get('/projects/:id/varsets', async (c) =>
    sendSets(
      c,
      await varsets.listProjectVarsets(c.get('ctx'), c.req.param('id'), pageOf(c), { q: queryParam(c, 'q') }),
    ),
  );
  r.get('/workspaces/:id/varsets', async (c) =>
    sendSets(
      c,
      await varsets.listWorkspaceVarsets(c.get('ctx'), c.req.param('id'), pageOf(c), { q: queryParam(c, 'q') }),
    ),
  );

  r.get('/varsets/:id', async (c) => {
    const set = await varsets.getVarset(c.get('ctx'), c.req.param('id'));
    return sendResource(c, serializeVarset(set), { included: await includedOf(c, [set]) });
  });

  const update = async (c: Context<AppEnv>) => {
    const input = parseVarsetInput(await readResource(c, 'varsets'), 'update');
    return sendResource(c, serializeVarset(await varsets.updateVarset(c.get('ctx'), c.req.param('id')!, input)));
  };
  r.patch('/varsets/:id', update);
  r.put('/varsets/:id', update);

  r.delete('/varsets/:id', async (c) => {
    await varsets.deleteVarset(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  for (const link of ['workspaces', 'projects'] as const) {
    r.post(`/varsets/:id/relationships/${link}`, async (c) => {
      const ids = parseIdentifierList(await readJson(c), link);
      await varsets.changeVarsetLinks(c.get('ctx'), c.req.param('id'), link, ids, 'add');
      return c.body(null, 204);
    });
    r.delete(`/varsets/:id/relationships/${link}`, async (c) => {
      const ids = parseIdentifierList(await readJson(c), link);
      await varsets.changeVarsetLinks(c.get('ctx'), c.req.param('id'), link, ids, 'remove');
      return c.body(null, 204);
    });
  }

  r.get('/varsets/:id/relationships/vars', async (c) =>
    sendList(
      c,
      (await varsetVariables.listVarsetVariables(c.get('ctx'), c.req.param('id'))).map(serializeVarsetVariable),
    ),
  );
  r.post('/varsets/:id/relationships/vars', async (c) => {
    const { attributes } = await readResource(c, 'vars');
    const v = await varsetVariables.createVarsetVariable(
      c.get('ctx'),
      c.req.param('id'),
      parseVariableInput(attributes, 'create'),
    );
    return sendResource(c, serializeVarsetVariable(v), { status: 201 });
  });
  r.get('/varsets/:id/relationships/vars/:var', async (c) =>
    sendResource(
      c,
      serializeVarsetVariable(
        await varsetVariables.getVarsetVariable(c.get('ctx'), c.req.param('id'), c.req.param('var')),
      ),
    ),
  );
  r.patch('/varsets/:id/relationships/vars/:var', async (c) => {
    const { attributes } = await readResource(c, 'vars');
    const v = await varsetVariables.updateVarsetVariable(
      c.get('ctx'),
      c.req.param('id'),
      c.req.param('var'),
      parseVariableInput(attributes, 'update'),
    );
    return sendResource(c, serializeVarsetVariable(v));
  });
  r.delete('/varsets/:id/relationships/vars/:var', async (c) => {
    await varsetVariables.deleteVarsetVariable(c.get('ctx'), c.req.param('id'), c.req.param('var'));
    return c.body(null, 204);
  });
  return r;
}
