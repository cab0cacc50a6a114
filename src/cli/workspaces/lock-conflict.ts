import type { BerthClient } from '../../client/client.js';
import type { WorkspaceAttributes } from '../../client/resources.js';
import { BerthError } from '../../domain/common/errors.js';
import { describeLock } from './lock-holder.js';

/** The API's 409 when the caller locks a workspace it already holds (docs/api.md "Lock holders"). */
export function isHeldByCaller(err: unknown): boolean {
  return err instanceof BerthError && err.status === 409 && /already locked by you/.test(err.detail ?? '');
}

/**
 * The API's 409 for unlocking a workspace that is not locked (its detail names that case, for
 * unlock and force-unlock alike): for a person, nothing left to do.
 */
export function isNotLocked(err: unknown): boolean {
  return err instanceof BerthError && err.status === 409 && /the workspace is not locked/.test(err.detail ?? '');
}

/**
 * Explains a lock conflict as a person needs it: who holds the lock, by name, since when and why
 * (`Workspace app is locked by alice (user) since 14:02, 3 minutes ago: "migration".`). The
 * status stays that of the original error, and the detail keeps "is locked by", so the exit code
 * does too (8 when someone else holds the lock).
 */
export async function explainLockConflict(err: unknown, client: BerthClient, workspaceId: string): Promise<never> {
  if (!(err instanceof BerthError) || err.status !== 409) throw err;
  let doc;
  try {
    doc = await client.get<WorkspaceAttributes>(`/workspaces/${encodeURIComponent(workspaceId)}`, {
      include: 'locked_by',
    });
  } catch {
    throw err;
  }
  const ws = doc.data;
  if (!ws.attributes.locked) throw err;
  const what = isHeldByCaller(err) ? 'is already locked by you' : `is ${describeLock(ws, doc.included ?? [])}`;
  throw new BerthError([{ ...err.items[0], detail: `Workspace ${ws.attributes.name} ${what}.` }]);
}
