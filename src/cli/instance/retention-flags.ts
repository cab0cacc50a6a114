import { Flags } from '../oclif.js';
import { usageError } from '../common/prompts.js';

export const retentionFlags = {
  'delete-older-than-days': Flags.integer({
    description: 'delete state versions and runs older than N days (N >= 1)',
    min: 1,
  }),
  'dont-delete': Flags.boolean({ description: 'keep everything', default: false }),
};

/** N days, or null for "don't delete"; exactly one of the two flags. */
export function retentionDays(flags: { 'delete-older-than-days'?: number; 'dont-delete': boolean }): number | null {
  const days = flags['delete-older-than-days'];
  if ((days === undefined) === !flags['dont-delete'])
    throw usageError('give exactly one of --delete-older-than-days N and --dont-delete');
  return days ?? null;
}
