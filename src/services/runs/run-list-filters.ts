import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { RunStatus } from '../../domain/runs/run.js';
import {
  OPERATION_PRECEDENCE,
  statusesOfGroup,
  type OperationFlags,
  type RunOperation,
  type RunStatusGroup,
  type TimeSpan,
} from '../../domain/runs/run-list-filters.js';
import { containsInsensitive } from '../../store/like.js';
import type { DB } from '../../store/schema.js';

/** One condition on the `runs` table (columns qualified, so that a list may join more tables). */
export type RunCondition = (eb: ExpressionBuilder<DB, 'runs'>) => Expression<SqlBool>;

/** What a run list keeps: each given member narrows it (all of them together). */
export interface RunListFilter {
  /** `filter[status]`; empty: only statuses berth's runs never have were named, so none matches. */
  statuses?: RunStatus[];
  /** `filter[status_group]`. */
  statusGroup?: RunStatusGroup;
  /** `filter[operation]`: runs of any of these operations. */
  operations?: RunOperation[];
  /** `filter[source]`. */
  sources?: string[];
  /** `search[user]`: the username of the user whose token created the run (case-insensitive). */
  user?: string;
  /** `search[commit]`: berth's runs have no commit, so any value matches none. */
  commit?: string;
  /** `search[basic]`: run id, message (contains, case-insensitive) or creator's username. */
  basic?: string;
  /** `filter[timeframe]`: created within any of these spans. */
  createdIn?: TimeSpan[];
}

const NONE: RunCondition = () => sql<SqlBool>`1 = 0`;

const FLAG_COLUMNS = {
  planOnly: 'runs.plan_only',
  savePlan: 'runs.save_plan',
  refreshOnly: 'runs.refresh_only',
  isDestroy: 'runs.is_destroy',
  allowEmptyApply: 'runs.allow_empty_apply',
} as const satisfies Record<keyof OperationFlags, string>;

/** A run of `operation`: its own option set, and none of those that come before it (domain). */
function ofOperation(eb: ExpressionBuilder<DB, 'runs'>, operation: RunOperation): Expression<SqlBool> {
  const at = OPERATION_PRECEDENCE.findIndex(([op]) => op === operation);
  const before = at === -1 ? OPERATION_PRECEDENCE : OPERATION_PRECEDENCE.slice(0, at);
  return eb.and([
    ...before.map(([, flag]) => eb(FLAG_COLUMNS[flag], '=', 0)),
    ...(at === -1 ? [] : [eb(FLAG_COLUMNS[OPERATION_PRECEDENCE[at][1]], '=', 1)]),
  ]);
}

/**
 * Created with the token of the user named `username`: a run records the token it was created
 * with (run-creator.ts reads the user the same way).
 */
function createdByUser(eb: ExpressionBuilder<DB, 'runs'>, username: string): Expression<SqlBool> {
  return eb.and([
    eb('runs.created_by_kind', '=', 'user'),
    eb(
      'runs.created_by_id',
      'in',
      eb
        .selectFrom('tokens')
        .innerJoin('users', 'users.id', 'tokens.user_id')
        .select('tokens.id')
        .where((u) => u(u.fn('lower', ['users.username']), '=', username.toLowerCase())),
    ),
  ]);
}

/** The conditions of `filter`, to add to a query of runs with `.where(...)`. */
export function runConditions(filter: RunListFilter): RunCondition[] {
  const out: RunCondition[] = [];
  const { statuses, statusGroup, operations, sources, user, commit, basic, createdIn } = filter;
  if (statuses) out.push(statuses.length === 0 ? NONE : (eb) => eb('runs.status', 'in', statuses));
  if (statusGroup) out.push((eb) => eb('runs.status', 'in', statusesOfGroup(statusGroup)));
  if (operations) out.push((eb) => eb.or(operations.map((op) => ofOperation(eb, op))));
  if (sources) out.push((eb) => eb('runs.source', 'in', sources));
  if (user !== undefined) out.push((eb) => createdByUser(eb, user));
  if (commit !== undefined) out.push(NONE);
  // As HCP: search[user] or search[commit] takes priority, and search[basic] is then not used.
  if (basic !== undefined && user === undefined && commit === undefined)
    out.push((eb) =>
      eb.or([eb('runs.id', '=', basic), containsInsensitive('runs.message', basic), createdByUser(eb, basic)]),
    );
  if (createdIn)
    out.push((eb) =>
      eb.or(
        createdIn.map((span) =>
          eb.and([
            eb('runs.created_at', '>=', span.from),
            ...(span.to === undefined ? [] : [eb('runs.created_at', '<', span.to)]),
          ]),
        ),
      ),
    );
  return out;
}
