import { BerthError } from './errors.js';

/**
 * The self-hosted edition's backing-data actions, which state versions and configuration versions
 * share (HCP's `POST /state-versions/:id/actions/…` and `/configuration-versions/:id/actions/…`):
 * soft-delete the stored bytes (kept, but no longer handed out), restore them, or delete them for
 * good.
 */
export const BACKING_DATA_ACTIONS = [
  'soft_delete_backing_data',
  'restore_backing_data',
  'permanently_delete_backing_data',
] as const;

export type BackingDataAction = (typeof BACKING_DATA_ACTIONS)[number];

export const SOFT_DELETED = 'backing_data_soft_deleted';
export const PERMANENTLY_DELETED = 'backing_data_permanently_deleted';

/**
 * The status an action starts from and the one it leads to, for a resource whose status while it
 * has its data is `live` (a state version's `finalized`, a configuration version's `uploaded`).
 */
export function backingDataMove(action: BackingDataAction, live: string): { from: string; to: string } {
  switch (action) {
    case 'soft_delete_backing_data':
      return { from: live, to: SOFT_DELETED };
    case 'restore_backing_data':
      return { from: SOFT_DELETED, to: live };
    case 'permanently_delete_backing_data':
      return { from: SOFT_DELETED, to: PERMANENTLY_DELETED };
  }
}

/** A move refused: 422 whose detail starts `transition not allowed` (what go-tfe's tests look for). */
export function transitionRefused(detail: string): BerthError {
  return new BerthError([{ status: 422, title: 'unprocessable entity', detail: `transition not allowed${detail}` }]);
}
