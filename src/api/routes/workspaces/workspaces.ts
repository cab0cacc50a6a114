import { Hono, type Context } from 'hono';
import { badRequest } from '../../../domain/common/errors.js';
import type { Run } from '../../../domain/runs/run.js';
import type { ExecutedRun } from '../../../domain/runs/run-execution.js';
import { parseWorkspaceInput, type Workspace } from '../../../domain/workspaces/workspace.js';
import type { ServiceContext } from '../../../services/context.js';
import { safeDeleteWorkspace, forceDeleteWorkspace } from '../../../services/workspaces/workspaces-delete.js';
import { loadWorkspaceIncludes, type WorkspaceIncludes } from '../../../services/workspaces/workspaces-include.js';
import {
  getWorkspace,
  listWorkspaces,
  type WorkspaceListQuery,
  type WorkspaceRef,
  type WorkspaceSort,
} from '../../../services/workspaces/workspaces-read.js';
import { createWorkspace, updateWorkspace } from '../../../services/workspaces/workspaces-write.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam, rejectUnknownFilters, TAGGED_FILTER } from '../../query.js';
import { taggedFiltersOf } from '../../tag-filters.js';
import { serializeOrganization } from '../../serializers/organization.js';
import { serializeProject } from '../../serializers/project.js';
import { serializePlan, serializeRun } from '../../serializers/run.js';
import { serializeConfigurationVersion, serializeExecutedRun } from '../../serializers/run-execution.js';
import { serializeStateVersion } from '../../serializers/state-version.js';
import { serializeTeam, serializeTeamName } from '../../serializers/team.js';
import { serializeUserView } from '../../serializers/user.js';
import { serializeEffectiveTagBinding, serializeOutput, serializeWorkspace } from '../../serializers/workspace.js';

/** Every include value of the spec; those whose records do not exist yet add nothing. */
export const WORKSPACE_INCLUDES = [
  'current_configuration_version',
  'current_configuration_version.ingress_attributes',
  'current_run',
  'current_run.configuration_version',
  'current_run.configuration_version.ingress_attributes',
  'current_run.plan',
  'locked_by',
  'organization',
  'outputs',
  'project',
  'readme',
  'effective_tag_bindings',
  'current_state_version',
] as const;

const SORTS: WorkspaceSort[] = ['name', 'current-run.created-at', 'latest-change-at', 'locked-at'];

const byId = (c: Context<AppEnv>): WorkspaceRef => ({ id: c.req.param('id')! });
const byName = (c: Context<AppEnv>): WorkspaceRef => ({
  organization: c.req.param('org')!,
  name: c.req.param('name')!,
});

const commaList = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');

/** The `filter[...]` and `search[...]` parameters of the workspace list. */
const LIST_FILTERS = [
  /^search\[(name|tags|exclude-tags|wildcard-name)\]$/,
  /^filter\[project\]\[id\]$/,
  /^filter\[current-run\]\[status\]$/,
  /^filter\[locked\]$/,
  TAGGED_FILTER,
];

/** Reads the list query parameters (filters, searches, sort) of `GET .../workspaces`. */
export function listQueryOf(c: Context<AppEnv>): WorkspaceListQuery {
  rejectUnknownFilters(c, LIST_FILTERS);
  const query: WorkspaceListQuery = {
    searchName: queryParam(c, 'search[name]'),
    searchTags: commaList(queryParam(c, 'search[tags]')),
    excludeTags: commaList(queryParam(c, 'search[exclude-tags]')),
    wildcardName: queryParam(c, 'search[wildcard-name]'),
    projectId: queryParam(c, 'filter[project][id]'),
    currentRunStatus: commaList(queryParam(c, 'filter[current-run][status]')),
  };
  // A key alone, a value alone (under any key), or both; an index with neither matches anything.
  query.tagged = taggedFiltersOf(c)
    .filter((t) => t.key !== undefined || t.value !== undefined)
    .map((t) => ({ key: t.key ?? '', value: t.value ?? '' }));
  const locked = queryParam(c, 'filter[locked]');
  if (locked !== undefined) {
    if (locked !== 'true' && locked !== 'false')
      throw badRequest('filter[locked] must be true or false', { parameter: 'filter[locked]' });
    query.locked = locked === 'true';
  }
  const sort = queryParam(c, 'sort');
  if (sort !== undefined) {
    const descending = sort.startsWith('-');
    const by = (descending ? sort.slice(1) : sort) as WorkspaceSort;
    if (!SORTS.includes(by))
      throw badRequest(`Invalid sort parameter: use ${SORTS.join(', ')}, optionally prefixed with -`, {
        parameter: 'sort',
      });
    query.sort = { by, descending };
  }
  return query;
}

/** The `included` resources of a workspace document or list. */
function includedResources(c: Context<AppEnv>, inc: WorkspaceIncludes, include: Set<string>): ResourceObject[] {
  // Without `include` nothing was loaded: skip parsing the URL and the empty spreads below.
  if (include.size === 0) return [];
  const origin = new URL(c.req.url).origin;
  return unique([
    ...inc.organizations.map(serializeOrganization),
    ...inc.projects.map((p) => serializeProject(p)),
    ...[...(inc.effectiveTagBindings?.values() ?? [])].flat().map(serializeEffectiveTagBinding),
    // Every resource on an include path is included: `current_run.plan` brings the run too. An
    // executed run names its configuration version (`current_run.configuration_version`).
    ...([...include].some((i) => i.startsWith('current_run')) ? inc.runs.map(serializeAnyRun) : []),
    ...(include.has('current_run.plan') ? inc.runs.map(serializePlan) : []),
    ...inc.configurationVersions.map((cv) => serializeConfigurationVersion(cv, origin)),
    ...inc.stateVersions.map((sv) => serializeStateVersion(sv, origin)),
    ...[...inc.outputs.values()].flat().map(serializeOutput),
    ...lockHolderResources(inc.lockHolders),
  ]);
}

const serializeAnyRun = (run: Run) =>
  'execution' in run ? serializeExecutedRun(run as ExecutedRun) : serializeRun(run);

/** The users, teams and runs that hold the locks (`include=locked_by`). */
function lockHolderResources(h: WorkspaceIncludes['lockHolders']): ResourceObject[] {
  if (!h) return [];
  return [
    ...h.users.map(serializeUserView),
    ...h.teams.map(serializeTeam),
    ...h.teamNames.map(serializeTeamName),
    ...h.runs.map(serializeRun),
  ];
}

/** Each resource once: a run can be both the current run and the lock holder. */
function unique(resources: ResourceObject[]): ResourceObject[] {
  const seen = new Set<string>();
  return resources.filter((r) => {
    const key = `${r.type}/${r.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function serializeOptions(ctx: ServiceContext, inc: WorkspaceIncludes, ws: Workspace) {
  return {
    edition: ctx.settings.edition,
    effectiveTagBindings: inc.effectiveTagBindings?.get(ws.id),
    outputs: inc.outputs.get(ws.id),
    variableIds: inc.variableIds.get(ws.id),
  };
}

async function sendWorkspace(
  c: Context<AppEnv>,
  ctx: ServiceContext,
  ws: Workspace,
  status: 200 | 201,
  /** Parsed by the route before anything it does (`includesOf`), so that a bad one changes nothing. */
  include: Set<string>,
): Promise<Response> {
  const inc = await loadWorkspaceIncludes(ctx, [ws], include);
  return sendResource(c, serializeWorkspace(ws, serializeOptions(ctx, inc, ws)), {
    status,
    included: includedResources(c, inc, include),
  });
}

/** Workspaces: every operation by id and by organization and name, through shared handlers. */
export function workspaceRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.post('/organizations/:org/workspaces', async (c) => {
    const ctx = c.get('ctx');
    // `include` is checked before the write: a request refused for it changes nothing.
    const include = includesOf(c, WORKSPACE_INCLUDES);
    const input = parseWorkspaceInput(
      await readResource(c, 'workspaces'),
      'create',
      ctx.settings.edition,
      ctx.settings.terraformVersion,
    );
    return sendWorkspace(c, ctx, await createWorkspace(ctx, c.req.param('org'), input), 201, include);
  });

  r.get('/organizations/:org/workspaces', async (c) => {
    const ctx = c.get('ctx');
    const include = includesOf(c, WORKSPACE_INCLUDES);
    const query = listQueryOf(c);
    const paged = await listWorkspaces(ctx, c.req.param('org'), query, pageOf(c));
    const inc = await loadWorkspaceIncludes(ctx, paged.items, include);
    return sendCollection(
      c,
      paged,
      (w) => serializeWorkspace(w, serializeOptions(ctx, inc, w)),
      includedResources(c, inc, include),
    );
  });

  for (const [path, ref] of [
    ['/workspaces/:id', byId],
    ['/organizations/:org/workspaces/:name', byName],
  ] as const) {
    r.get(path, async (c) => {
      const ctx = c.get('ctx');
      // Checked before the workspace is read: a bad include is a 400 even for an unknown workspace.
      const include = includesOf(c, WORKSPACE_INCLUDES);
      return sendWorkspace(c, ctx, await getWorkspace(ctx, ref(c)), 200, include);
    });

    r.patch(path, async (c) => {
      const ctx = c.get('ctx');
      const include = includesOf(c, WORKSPACE_INCLUDES);
      const input = parseWorkspaceInput(
        await readResource(c, 'workspaces'),
        'update',
        ctx.settings.edition,
        ctx.settings.terraformVersion,
      );
      return sendWorkspace(c, ctx, await updateWorkspace(ctx, ref(c), input), 200, include);
    });

    r.delete(path, async (c) => {
      await forceDeleteWorkspace(c.get('ctx'), ref(c));
      return c.body(null, 204);
    });

    r.post(`${path}/actions/safe-delete`, async (c) => {
      await safeDeleteWorkspace(c.get('ctx'), ref(c));
      return c.body(null, 204);
    });
  }

  return r;
}
