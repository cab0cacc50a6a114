import type { Context } from 'hono';
import { badRequest } from '../../../domain/common/errors.js';
import { HCP_ONLY_RUN_STATUSES, RUN_STATUSES, type RunStatus } from '../../../domain/runs/run.js';
import {
  RUN_OPERATIONS,
  RUN_SOURCES,
  RUN_STATUS_GROUPS,
  timeframeSpan,
  type RunOperation,
  type RunStatusGroup,
} from '../../../domain/runs/run-list-filters.js';
import type { RunListFilter } from '../../../services/runs/run-list-filters.js';
import type { OrganizationRunFilter } from '../../../services/runs/organization-runs.js';
import type { AppEnv } from '../../env.js';
import { queryParam } from '../../query.js';

/**
 * The `filter[...]`/`search[...]` parameters of run lists, as go-tfe sends them: a workspace's
 * (RunListOptions) and an organization's (RunListForOrganizationOptions). Any other is a 400
 * naming it (rejectUnknownFilters), and a value outside a parameter's vocabulary too: a typo would
 * otherwise list nothing, or everything.
 */
export const WORKSPACE_RUN_FILTERS = [/^search\[(user|commit|basic)\]$/, /^filter\[(status|source|operation)\]$/];
export const ORGANIZATION_RUN_FILTERS = [
  /^search\[(user|commit|basic)\]$/,
  /^filter\[(status|source|operation|status_group|timeframe|workspace_names|agent_pool_names)\]$/,
];

/**
 * A comma-separated parameter's values, trimmed; undefined when absent or blank. A vocabulary's
 * empty value is kept (and refused: `pending,,` is a typo); a list of names drops it.
 */
function listOf(c: Context<AppEnv>, name: string, dropEmpty = false): string[] | undefined {
  const raw = queryParam(c, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  const values = raw.split(',').map((s) => s.trim());
  return dropEmpty ? values.filter((s) => s !== '') : values;
}

/** The values of `name`, each one of `known`, else a 400 naming the parameter and the value. */
function vocabularyOf<T extends string>(c: Context<AppEnv>, name: string, known: readonly string[], what: string) {
  const values = listOf(c, name);
  const unknown = values?.find((v) => !known.includes(v));
  if (unknown !== undefined)
    throw badRequest(`unknown ${what} "${unknown}" in ${name}: one of ${known.join(', ')}`, { parameter: name });
  return values as T[] | undefined;
}

/**
 * `filter[status]`: any status of HCP Terraform's is taken; those berth's runs never have match
 * none (an empty list then).
 */
function statusesOf(c: Context<AppEnv>): RunStatus[] | undefined {
  const name = 'filter[status]';
  const values = listOf(c, name);
  const unknown = values?.find((s) => ![...RUN_STATUSES, ...HCP_ONLY_RUN_STATUSES].includes(s as RunStatus));
  if (unknown !== undefined)
    throw badRequest(`unknown run status "${unknown}" in ${name}: one of ${RUN_STATUSES.join(', ')}`, {
      parameter: name,
    });
  return values?.filter((s): s is RunStatus => (RUN_STATUSES as readonly string[]).includes(s));
}

/** A search term; absent or empty, no search. */
const searchOf = (c: Context<AppEnv>, name: string) => queryParam(c, name);

/** The filter of `GET /workspaces/:id/runs`. */
export function workspaceRunFilterOf(c: Context<AppEnv>): RunListFilter {
  return {
    statuses: statusesOf(c),
    operations: vocabularyOf<RunOperation>(c, 'filter[operation]', RUN_OPERATIONS, 'run operation'),
    sources: vocabularyOf(c, 'filter[source]', RUN_SOURCES, 'run source'),
    user: searchOf(c, 'search[user]'),
    commit: searchOf(c, 'search[commit]'),
    basic: searchOf(c, 'search[basic]'),
  };
}

/** The filter of `GET /organizations/:org/runs`: a workspace's, and the organization list's own. */
export function organizationRunFilterOf(c: Context<AppEnv>): OrganizationRunFilter {
  // go-tfe documents a single status group.
  const groups = vocabularyOf<RunStatusGroup>(c, 'filter[status_group]', RUN_STATUS_GROUPS, 'run status group');
  if (groups && groups.length > 1)
    throw badRequest('filter[status_group] takes one status group', { parameter: 'filter[status_group]' });
  const now = c.get('ctx').clock.now();
  const timeframes = listOf(c, 'filter[timeframe]');
  const spans = timeframes?.map((t) => {
    const span = timeframeSpan(t, now);
    if (!span)
      throw badRequest(`unknown timeframe "${t}" in filter[timeframe]: year, or a year such as 2025`, {
        parameter: 'filter[timeframe]',
      });
    return span;
  });
  return {
    ...workspaceRunFilterOf(c),
    statusGroup: groups?.[0],
    createdIn: spans,
    workspaceNames: listOf(c, 'filter[workspace_names]', true),
    agentPoolNames: listOf(c, 'filter[agent_pool_names]', true),
  };
}
