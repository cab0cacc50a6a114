import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import { BerthError } from '../../domain/common/errors.js';
import { exitCodeFor, messageFor } from '../common/exit-codes.js';
import { Flags } from '../oclif.js';
import { renderTable } from '../output/output.js';
import { canPrompt, confirm, usageError } from '../common/prompts.js';
import { anyFilter, filtersFromFlags, workspaceFilterFlags } from './workspace-filters.js';
import type { WorkspaceAttributes } from '../../client/resources.js';
import { listQuery } from '../../client/workspaces.js';
import { plural } from '../../domain/common/plural.js';

export interface BulkResult {
  id: string;
  name: string;
  ok: boolean;
  error?: string;
  /** A success that changed nothing, and why (`already held`: the caller held the lock already). */
  note?: string;
  /** --dry-run: nothing was done; the workspace would have been acted on. */
  dryRun?: boolean;
}

/** What an action returns when it succeeded without changing anything, saying why (`already held`). */
export class BulkNote {
  constructor(readonly note: string) {}
}

export interface BulkOutcome {
  results: BulkResult[];
  /** Exit code: 0 when all succeeded, else the code of the first failure's kind. */
  exitCode: number;
}

/** The flags of a command that can act on every workspace matching the filters of `workspace list`. */
export function bulkFlags(what: string) {
  return {
    'all-matching': Flags.boolean({ description: `${what} every workspace that matches the filters`, default: false }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation (bulk)', default: false }),
    'dry-run': Flags.boolean({
      description: 'show the workspaces it would act on and change nothing (with --all-matching)',
      default: false,
    }),
    ...workspaceFilterFlags,
  };
}

/**
 * Previews the workspaces a bulk operation is about to act on (on stderr) and confirms on a
 * terminal, or takes --yes; without --yes and without a terminal, refuses.
 */
export async function confirmBulk(
  items: Resource[],
  verb: string,
  flags: { yes?: boolean; json?: boolean; 'dry-run'?: boolean },
  preview?: (items: Resource[]) => string,
): Promise<void> {
  if (flags['dry-run']) verb = `Dry run (nothing changes): ${verb}`;
  const names = items.map((w) => String(w.attributes.name));
  const count = `${verb} ${plural(items.length, 'workspace')}`;
  // A preview table (e.g. who holds each lock and why) says more than names; every row is shown.
  process.stderr.write(
    preview
      ? `${count}:\n${preview(items)}\n`
      : `${count}: ${names.slice(0, 20).join(', ')}${names.length > 20 ? `, … (${names.length - 20} more)` : ''}\n`,
  );
  if (flags.yes || flags['dry-run']) return;
  if (!canPrompt(flags))
    throw usageError(`refusing to act on ${plural(items.length, 'workspace')} without --yes when not on a terminal`);
  if (
    !(await confirm(
      items.length === 1 ? 'Go ahead with this workspace?' : `Go ahead with these ${items.length} workspaces?`,
    ))
  )
    throw usageError('aborted');
}

/**
 * A bulk operation over workspaces: preview and confirm (confirmBulk), act on each in turn with
 * progress on stderr, and report every result. Failures do not stop the others.
 */
export async function runBulk(
  items: Resource[],
  verb: string,
  flags: { yes?: boolean; json?: boolean; 'dry-run'?: boolean },
  act: (item: Resource) => Promise<unknown>,
  preview?: (items: Resource[]) => string,
): Promise<BulkOutcome> {
  if (items.length === 0) return { results: [], exitCode: 0 };
  await confirmBulk(items, verb, flags, preview);
  if (flags['dry-run'])
    return {
      results: items.map((item) => ({ id: item.id, name: String(item.attributes.name), ok: true, dryRun: true })),
      exitCode: 0,
    };
  const results: BulkResult[] = [];
  let exitCode = 0;
  const progress = process.stderr.isTTY && !flags.json;
  for (const [i, item] of items.entries()) {
    if (progress) process.stderr.write(`\r${verb} ${i + 1}/${items.length}…`);
    try {
      const done = await act(item);
      results.push({
        id: item.id,
        name: String(item.attributes.name),
        ok: true,
        ...(done instanceof BulkNote ? { note: done.note } : {}),
      });
    } catch (err) {
      if (!(err instanceof BerthError)) throw err;
      results.push({
        id: item.id,
        name: String(item.attributes.name),
        ok: false,
        error: messageFor(err).replace(/^Error: /, ''),
      });
      if (exitCode === 0) exitCode = exitCodeFor(err);
    }
  }
  if (progress) process.stderr.write('\n');
  return { results, exitCode };
}

export function bulkTable(
  results: BulkResult[],
  extra: { header: string; value: (r: BulkResult) => unknown }[] = [],
): string {
  const failed = results.filter((r) => !r.ok).length;
  const dryRun = results.some((r) => r.dryRun);
  const notes = results.flatMap((r) => (r.note ? [r.note] : []));
  const table = renderTable(results, [
    { header: 'WORKSPACE', value: (r) => r.name },
    { header: 'ID', value: (r) => r.id },
    ...extra,
    { header: 'RESULT', value: (r) => (r.dryRun ? 'would change' : r.ok ? (r.note ?? 'ok') : 'failed') },
    { header: 'DETAIL', value: (r) => r.error },
  ]);
  if (dryRun) return `${table}\nDry run: ${results.length} would change; nothing was changed.`;
  const held = [...new Set(notes)].map((n) => `${notes.filter((x) => x === n).length} ${n}`).join(', ');
  return `${table}\n${results.length - failed} succeeded${held ? ` (${held})` : ''}, ${failed} failed.`;
}

/**
 * The workspaces a bulk command acts on: `--all-matching` needs at least one filter and no
 * WORKSPACE argument (the whole organization is never the target by accident).
 */
export async function matchingWorkspaces(
  client: BerthClient,
  org: string,
  workspaceArgs: string | string[] | undefined,
  flags: Parameters<typeof filtersFromFlags>[2],
): Promise<Resource[]> {
  return (await matchingWorkspacesWith(client, org, workspaceArgs, flags)).data;
}

/** As matchingWorkspaces, with the resources `include` (e.g. `locked_by`) brought along. */
export async function matchingWorkspacesWith(
  client: BerthClient,
  org: string,
  workspaceArgs: string | string[] | undefined,
  flags: Parameters<typeof filtersFromFlags>[2],
  include?: string,
): Promise<{ data: Resource<WorkspaceAttributes>[]; included: Resource[] }> {
  if (workspaceArgs !== undefined && workspaceArgs.length > 0)
    throw usageError('give either WORKSPACE or --all-matching with filters, not both');
  if (!anyFilter(flags)) throw usageError('--all-matching needs at least one filter (e.g. --search, --tag, --project)');
  const filters = await filtersFromFlags(client, org, flags);
  return client.listPages<WorkspaceAttributes>(
    `/organizations/${encodeURIComponent(org)}/workspaces`,
    listQuery({ ...filters, include }),
  );
}
