import { bindingsNamed } from '../../../domain/workspaces/tags.js';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { badRequest, invalid } from '../../../domain/common/errors.js';
import { parseProjectInput } from '../../../domain/projects/project.js';
import { parseTagBindings, type TagBindingInput } from '../../../domain/workspaces/tags.js';
import * as projects from '../../../services/projects/projects.js';
import { readJson, readResource } from '../../body.js';
import { sendCollection, sendList, sendResource, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam, rejectUnknownFilters, TAGGED_FILTER } from '../../query.js';
import { serializeProject } from '../../serializers/project.js';
import { serializeEffectiveTagBinding, serializeTagBinding } from '../../serializers/tag-binding.js';
import { taggedFiltersOf } from '../../tag-filters.js';

const INCLUDES = ['effective_tag_bindings'] as const;

/** A top-level `{"data": [tag-bindings...]}` body. */
async function readTagBindings(c: Context): Promise<TagBindingInput[]> {
  const body = await readJson(c);
  if (body!.data === undefined) throw invalid('/data', 'request body must contain a data member');
  return parseTagBindings(body!.data, '/data');
}

function sortOf(c: Context): 'name' | '-name' | undefined {
  const sort = queryParam(c, 'sort');
  if (sort === undefined || sort === 'name' || sort === '-name') return sort;
  throw badRequest('Invalid sort parameter: use name or -name', { parameter: 'sort' });
}

/** The `filter[...]` parameters of the project list. */
const LIST_FILTERS = [/^filter\[names\]$/, /^filter\[permissions\]\[(create-workspace|update)\]$/, TAGGED_FILTER];

/**
 * `filter[permissions][x]` is on when present, whatever its value (`false` included): the spec
 * and HCP Terraform's docs say "when present", and neither gives the value a meaning.
 */
function permissionFilters(c: Context): projects.ProjectPermissionFilter[] {
  return (['create-workspace', 'update'] as const).filter(
    (name) => c.req.query(`filter[permissions][${name}]`) !== undefined,
  );
}

/** Projects, their tag bindings and effective tag bindings. */
export function projectRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/organizations/:org/projects', async (c) => {
    const input = parseProjectInput(await readResource(c, 'projects'), 'create');
    const project = await projects.createProject(c.get('ctx'), c.req.param('org'), input);
    return sendResource(c, serializeProject(project), { status: 201 });
  });

  r.get('/organizations/:org/projects', async (c) => {
    rejectUnknownFilters(c, LIST_FILTERS);
    const include = includesOf(c, INCLUDES);
    const names = queryParam(c, 'filter[names]')
      ?.split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    const list = await projects.listProjects(c.get('ctx'), c.req.param('org'), pageOf(c), {
      q: queryParam(c, 'q'),
      names,
      permissions: permissionFilters(c),
      tagged: taggedFiltersOf(c),
      sort: sortOf(c),
      includeEffectiveTagBindings: include.has('effective_tag_bindings'),
    });
    const included: ResourceObject[] = [];
    const serialize = (p: (typeof list.items)[number]) => {
      const effective = list.effectiveTagBindings?.get(p.id);
      if (!effective) return serializeProject(p);
      const objects = effective.map(serializeEffectiveTagBinding);
      included.push(...objects);
      return serializeProject(p, { effectiveTagBindings: objects.map(({ id, type }) => ({ id, type })) });
    };
    return sendCollection(c, list, serialize, included, { 'status-counts': list.statusCounts });
  });

  r.get('/projects/:id', async (c) => {
    const include = includesOf(c, INCLUDES);
    const ctx = c.get('ctx');
    const project = await projects.getProject(ctx, c.req.param('id'));
    if (!include.has('effective_tag_bindings')) return sendResource(c, serializeProject(project));
    const objects = (await projects.projectEffectiveTagBindings(ctx, project.id)).map(serializeEffectiveTagBinding);
    const data = serializeProject(project, { effectiveTagBindings: objects.map(({ id, type }) => ({ id, type })) });
    return sendResource(c, data, { included: objects });
  });

  r.patch('/projects/:id', async (c) => {
    const input = parseProjectInput(await readResource(c, 'projects'), 'update');
    return sendResource(c, serializeProject(await projects.updateProject(c.get('ctx'), c.req.param('id'), input)));
  });

  r.delete('/projects/:id', async (c) => {
    await projects.deleteProject(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  // Tag bindings: the documented paths.
  r.get('/projects/:id/tag-bindings', async (c) =>
    sendList(c, (await projects.listProjectTagBindings(c.get('ctx'), c.req.param('id'))).map(serializeTagBinding)),
  );

  r.patch('/projects/:id/tag-bindings', async (c) => {
    const incoming = await readTagBindings(c);
    const all = await projects.addProjectTagBindings(c.get('ctx'), c.req.param('id'), incoming);
    return sendList(c, bindingsNamed(all, incoming).map(serializeTagBinding));
  });

  r.get('/projects/:id/effective-tag-bindings', async (c) =>
    sendList(
      c,
      (await projects.listProjectEffectiveTagBindings(c.get('ctx'), c.req.param('id'))).map(
        serializeEffectiveTagBinding,
      ),
    ),
  );

  // The relationship form newer clients (go-tfe/v2, the provider) use: POST adds, PATCH replaces.
  r.get('/projects/:id/relationships/tag-bindings', async (c) =>
    sendList(c, (await projects.listProjectTagBindings(c.get('ctx'), c.req.param('id'))).map(serializeTagBinding)),
  );

  r.post('/projects/:id/relationships/tag-bindings', async (c) => {
    await projects.addProjectTagBindings(c.get('ctx'), c.req.param('id'), await readTagBindings(c));
    return c.body(null, 204);
  });

  r.patch('/projects/:id/relationships/tag-bindings', async (c) => {
    await projects.replaceProjectTagBindings(c.get('ctx'), c.req.param('id'), await readTagBindings(c));
    return c.body(null, 204);
  });

  return r;
}
