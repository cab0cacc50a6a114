import { Flags } from '../oclif.js';

/**
 * Paging of the lists that fetch every page by default: `--page`/`--page-size` ask for one page,
 * `--all` (the default) for all of them.
 */
export const pagingFlags = {
  page: Flags.integer({ description: 'page number', min: 1 }),
  'page-size': Flags.integer({ description: 'items per page, 1 to 100', min: 1, max: 100 }),
  all: Flags.boolean({
    description: 'every page (the default without --page/--page-size)',
    exclusive: ['page', 'page-size'],
  }),
};
