import { Flags } from '../oclif.js';
import type { BerthClient } from '../../client/client.js';
import { resolveProjectId, type WorkspaceListFilters } from '../../client/workspaces.js';
import { RUN_STATUSES, isRunStatus } from '../../domain/runs/run.js';
import { validNameWildcard } from '../../domain/workspaces/workspace.js';
import { usageError } from '../common/prompts.js';
import { parseTagFlag } from './workspace-flags.js';

const split = (v: string | undefined) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

/** The filters of `workspace list`, shared by the bulk operations (`--all-matching`). */
export const workspaceFilterFlags = {
  search: Flags.string({ description: 'names containing this text (case-insensitive)' }),
  wildcard: Flags.string({ description: 'name pattern with * as prefix, suffix or both, e.g. "app-*"' }),
  tags: Flags.string({
    description: 'flat tags the workspaces must all have (comma-separated names; key-value tags: --tag)',
  }),
  'exclude-tags': Flags.string({ description: 'flat tags the workspaces must not have (comma-separated)' }),
  project: Flags.string({ char: 'p', description: 'only this project (prj- id or name)' }),
  'run-status': Flags.string({ description: 'current run status(es), comma-separated, e.g. applied,errored' }),
  tag: Flags.string({
    description: 'key-value tag key[=value]; repeat for AND; no value means any value',
    multiple: true,
    multipleNonGreedy: true,
  }),
  locked: Flags.boolean({ description: 'only locked workspaces (--no-locked: only unlocked ones)', allowNo: true }),
};

type FilterFlagValues = {
  search?: string;
  wildcard?: string;
  tags?: string;
  'exclude-tags'?: string;
  project?: string;
  'run-status'?: string;
  tag?: string[];
  locked?: boolean;
};

export async function filtersFromFlags(
  client: BerthClient,
  org: string,
  f: FilterFlagValues,
): Promise<WorkspaceListFilters> {
  if (f.tag?.some((t) => t.trim() === '')) throw usageError('--tag needs a key');
  // Flat tags never contain "=": `--tags env=prod` is a key-value tag given to the wrong flag.
  for (const flag of ['tags', 'exclude-tags'] as const) {
    const pair = split(f[flag])?.find((t) => t.includes('='));
    if (pair !== undefined)
      throw usageError(
        `--${flag} ${pair}: --${flag} takes flat tags (comma-separated names, no "=")` +
          (flag === 'tags' ? `; for the key-value tag ${pair} use --tag ${pair}` : ''),
      );
  }
  // Values that can match nothing are mistakes, not empty results.
  const statuses = split(f['run-status']);
  const unknown = statuses?.filter((s) => !isRunStatus(s)) ?? [];
  if (statuses?.length === 0 || unknown.length > 0)
    throw usageError(
      `--run-status: ${unknown.length > 0 ? `unknown status ${unknown.join(', ')}` : 'give at least one status'}; the statuses are ${RUN_STATUSES.join(', ')}`,
    );
  if (f.wildcard !== undefined && !validNameWildcard(f.wildcard))
    throw usageError(
      `--wildcard ${JSON.stringify(f.wildcard)}: * may only begin or end the pattern (a prefix, a suffix or both, e.g. "app-*", "*-prod", "*web*")`,
    );
  const filters: WorkspaceListFilters = {
    search: f.search,
    wildcard: f.wildcard,
    tags: split(f.tags),
    excludeTags: split(f['exclude-tags']),
    runStatus: statuses,
    tagged: f.tag?.map(parseTagFlag),
    locked: f.locked,
  };
  if (f.project) filters.projectId = await resolveProjectId(client, org, f.project);
  return filters;
}

/** Whether any filter flag is set (bulk operations refuse to act on a whole organization by accident). */
export function anyFilter(f: FilterFlagValues): boolean {
  return Object.keys(workspaceFilterFlags).some((k) => {
    const v = f[k as keyof FilterFlagValues];
    return Array.isArray(v) ? v.length > 0 : v !== undefined;
  });
}
