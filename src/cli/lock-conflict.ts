import type { BerthClient } from '../client/client.js';
import type { WorkspaceAttributes } from '../client/resources.js';
import { BerthError } from '../domain/errors.js';

/**
 * Adds to a lock conflict what a person needs: since when the workspace is locked and why.
 * The status stays that of the original error, so the exit code does too (8 when someone else
 * holds the lock).
 */
export async function explainLockConflict(err: unknown, client: BerthClient, workspaceId: string): Promise<never> {
  if (!(err instanceof BerthError) || err.status !== 409) throw err;
  let ws: WorkspaceAttributes | null = null;
  try {
    ws = (await client.get<WorkspaceAttributes>(`/workspaces/${encodeURIComponent(workspaceId)}`)).data.attributes;
  } catch {
    throw err;
  }
  if (!ws?.locked) throw err;
  const parts = [err.detail ?? ''];
  if (ws['locked-at']) parts.push(`Locked since ${ws['locked-at']}.`);
  if (ws['locked-reason']) parts.push(`Reason: ${ws['locked-reason']}.`);
  throw new BerthError([{ ...err.items[0], detail: parts.join(' ') }]);
}
