import { Flags } from '../oclif.js';
import type { ListAllOptions, PageOptions } from '../../client/client.js';
import type { Pagination } from '../../client/jsonapi.js';
import { plural } from '../../domain/common/plural.js';

/**
 * `--limit N` of every list command: lists print every item of every page by default (with
 * progress on stderr when it is a terminal and the list is long); `--limit` stops after N.
 */
export const limitFlag = {
  limit: Flags.integer({
    description: 'stop after N items (default: every item, all pages)',
    min: 1,
    exclusive: ['page', 'page-size'],
  }),
};

/**
 * The lists whose API pages can also be asked for one by one: `--page`/`--page-size` print that
 * page alone; without them, every page (`--all`, the default) or the first `--limit` items.
 */
export const pagingFlags = {
  page: Flags.integer({ description: 'print this page only (see --page-size)', min: 1 }),
  'page-size': Flags.integer({ description: 'items per page with --page, 1 to 100 (default 20)', min: 1, max: 100 }),
  all: Flags.boolean({
    description: 'every page (the default without --page/--page-size)',
    exclusive: ['page', 'page-size'],
  }),
  ...limitFlag,
};

/** The first `limit` items (all without a limit), for the lists the API does not page; `onCut` when some are left out. */
export function limited<T>(
  items: T[],
  limit: number | undefined,
  onCut?: (shown: number, total: number | null) => void,
): T[] {
  if (limit === undefined || items.length <= limit) return items;
  onCut?.(limit, items.length);
  return items.slice(0, limit);
}

/** What `--limit` left out, on stderr for people: "Showing 10 of 42 (--limit 10); leave out --limit for all." */
export function limitMessage(shown: number, total: number | null): string {
  return `Showing ${shown} of ${total ?? `more than ${shown}`} (--limit ${shown}); leave out --limit for all.`;
}

/**
 * The items a list command prints: one page with `--page`/`--page-size` (with `note`, a line on
 * stderr when there are other pages), else every page or the first `--limit` items, through the
 * client's one paging loop (`BerthClient.listAll`).
 */
export async function listFromFlags<T>(
  f: { page?: number; 'page-size'?: number; limit?: number },
  fetch: {
    all: (options: ListAllOptions) => Promise<T[]>;
    page?: (page: PageOptions) => Promise<{ data: T[]; pagination?: Pagination }>;
  },
  note?: (message: string) => void,
): Promise<T[]> {
  if (!fetch.page || (f.page === undefined && f['page-size'] === undefined)) return fetch.all({ limit: f.limit });
  const { data, pagination } = await fetch.page({ page: f.page, pageSize: f['page-size'] });
  if (note && pagination && pagination['total-pages'] > 1)
    note(
      `Page ${pagination['current-page']} of ${pagination['total-pages']} (${plural(pagination['total-count'], 'item')}); use --page N, or leave out --page/--page-size for all.`,
    );
  return data;
}
