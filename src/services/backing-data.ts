import { backingDataMove, transitionRefused, type BackingDataAction } from '../domain/common/backing-data.js';
import { notAuthorized, notFound } from '../domain/common/errors.js';
import { can, type OrgFacts } from '../domain/permissions/policy.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import type { ServiceContext } from './context.js';

/** What a backing-data action needs to know of the version it moves, read inside its transaction. */
export interface BackingDataSubject {
  status: string;
  /** The caller's facts in the version's workspace. */
  facts: OrgFacts;
  /** Why the version keeps its data whatever the move (the workspace's current one…), or null. */
  kept: string | null;
}

/** How one kind of version (state, configuration) takes the backing-data actions. */
export interface BackingDataKind {
  /** `state version`, `configuration version`: what the refusals call it. */
  noun: string;
  /** Its status while it has its data. */
  live: string;
  /** The version, read and checked readable (404 otherwise). */
  read(tx: Tx): Promise<BackingDataSubject>;
  /** Records the move to `to`, and removes the bytes when `to` is the permanent deletion. */
  move(tx: Tx, to: string): Promise<void>;
}

/**
 * The backing-data actions of state and configuration versions, one rule for both. Self-hosted
 * edition only (404 in the hosted edition, as a feature it does not have); workspace admins may
 * (404 otherwise); a version that keeps its data, and any move but soft-delete from live, restore
 * or permanent deletion from soft-deleted, is a 422 `transition not allowed`.
 */
export async function manageBackingData(
  ctx: ServiceContext,
  scope: ServiceContext,
  kind: BackingDataKind,
  action: BackingDataAction,
): Promise<void> {
  if (ctx.settings.edition !== 'self-hosted')
    throw notFound(`${kind.noun} backing data is managed only in the self-hosted edition`);
  await writeTransaction(scope, async (tx) => {
    const subject = await kind.read(tx);
    if (!can(ctx.actor, 'workspace:update', subject.facts))
      throw notAuthorized(`manage this ${kind.noun}'s backing data (workspace admins only)`);
    const { from, to } = backingDataMove(action, kind.live);
    if (subject.kept) throw transitionRefused(`: ${subject.kept}`);
    if (subject.status !== from) throw transitionRefused(` from ${subject.status} to ${to}`);
    await kind.move(tx, to);
  });
}
