import { Hono } from 'hono';
import { invalid } from '../../../domain/common/errors.js';
import { parseVariableAttributes } from '../../../domain/variables/variable.js';
import { listAllVariables } from '../../../services/variables/all-variables.js';
import { getVariable, listVariables, listVariablesByNames } from '../../../services/variables/variables-read.js';
import { createVariable, deleteVariable, updateVariable } from '../../../services/variables/variables-write.js';
import type { WorkspaceRef } from '../../../services/workspaces/workspaces-read.js';
import { readJson, readResource, type ResourceInput } from '../../body.js';
import { sendList, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { queryParam } from '../../query.js';
import { serializeVariable } from '../../serializers/variable.js';
import { serializeVarsetVariable } from '../../serializers/varset.js';

/**
 * The workspace of an older `POST /vars`: its `workspace` (or `configurable`) relationship, or
 * the deprecated body `filter` (`filter.organization.name` and `filter.workspace.name`).
 */
function workspaceOfCreate(input: ResourceInput, body: Record<string, unknown>): WorkspaceRef {
  for (const name of ['workspace', 'configurable']) {
    const data = (input.relationships[name] as { data?: { id?: unknown; type?: unknown } } | undefined)?.data;
    if (!data) continue;
    const pointer = `/data/relationships/${name}/data`;
    if (data.type !== undefined && data.type !== 'workspaces')
      throw invalid(`${pointer}/type`, 'type must be "workspaces"');
    if (typeof data.id !== 'string' || data.id === '') throw invalid(`${pointer}/id`, 'the workspace id is required');
    return { id: data.id };
  }
  const filter = body.filter as { organization?: { name?: unknown }; workspace?: { name?: unknown } } | undefined;
  const org = filter?.organization?.name;
  const ws = filter?.workspace?.name;
  if (typeof org === 'string' && org !== '' && typeof ws === 'string' && ws !== '')
    return { organization: org, name: ws };
  throw invalid('/data/relationships/workspace', 'the workspace relationship is required');
}

/** Workspace variables: `/workspaces/:id/vars` and the older `/vars` endpoints. */
export function variableRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/workspaces/:id/vars', async (c) =>
    sendList(c, (await listVariables(c.get('ctx'), { id: c.req.param('id') })).map(serializeVariable)),
  );
  // The variables that apply after precedence: the workspace's as `vars` with `configurable`,
  // a set's as `vars` with `varset` (each resource as its own endpoints answer it).
  r.get('/workspaces/:id/all-vars', async (c) =>
    sendList(
      c,
      (await listAllVariables(c.get('ctx'), c.req.param('id'))).map((a) =>
        a.source === 'workspace' ? serializeVariable(a.variable) : serializeVarsetVariable(a.variable),
      ),
    ),
  );
  r.post('/workspaces/:id/vars', async (c) => {
    const input = parseVariableAttributes((await readResource(c, 'vars')).attributes, 'create');
    const v = await createVariable(c.get('ctx'), { id: c.req.param('id') }, input);
    return sendResource(c, serializeVariable(v), { status: 201 });
  });
  r.get('/workspaces/:workspace_id/vars/:id', async (c) =>
    sendResource(c, serializeVariable(await getVariable(c.get('ctx'), c.req.param('workspace_id'), c.req.param('id')))),
  );
  r.patch('/workspaces/:workspace_id/vars/:id', async (c) => {
    const input = parseVariableAttributes((await readResource(c, 'vars')).attributes, 'update');
    const at = { id: c.req.param('id'), workspaceId: c.req.param('workspace_id') };
    return sendResource(c, serializeVariable(await updateVariable(c.get('ctx'), at, input)));
  });
  r.delete('/workspaces/:workspace_id/vars/:id', async (c) => {
    await deleteVariable(c.get('ctx'), { id: c.req.param('id'), workspaceId: c.req.param('workspace_id') });
    return c.body(null, 204);
  });

  r.get('/vars', async (c) => {
    const vars = await listVariablesByNames(
      c.get('ctx'),
      queryParam(c, 'filter[organization][name]'),
      queryParam(c, 'filter[workspace][name]'),
    );
    return sendList(c, vars.map(serializeVariable));
  });
  r.post('/vars', async (c) => {
    const body = (await readJson(c))!;
    const input = await readResource(c, 'vars');
    const attrs = parseVariableAttributes(input.attributes, 'create');
    const v = await createVariable(c.get('ctx'), workspaceOfCreate(input, body), attrs);
    return sendResource(c, serializeVariable(v), { status: 201 });
  });
  r.patch('/vars/:id', async (c) => {
    const input = parseVariableAttributes((await readResource(c, 'vars')).attributes, 'update');
    return sendResource(c, serializeVariable(await updateVariable(c.get('ctx'), { id: c.req.param('id') }, input)));
  });
  r.delete('/vars/:id', async (c) => {
    await deleteVariable(c.get('ctx'), { id: c.req.param('id') });
    return c.body(null, 204);
  });

  return r;
}
