import type { Tx } from '../store/transaction.js';

/**
 * A workspace's integer key as a subquery: the `workspace_seq` of every tag and binding row
 * written for it (the tag filters combine these; see migration 012).
 */
export function workspaceSeq(tx: Tx, workspaceId: string) {
  return tx.selectFrom('workspaces').select('workspaces.seq').where('workspaces.id', '=', workspaceId);
}
