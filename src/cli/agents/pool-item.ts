import type { BerthClient } from '../../client/client.js';
import { resolveAgentPoolId } from '../../client/workspaces.js';
import { usageError } from '../common/prompts.js';

/** The id of the pool a command names: an `apool-` id, or a name with `--org`. */
export async function poolIdOf(client: BerthClient, org: string | undefined, pool: string): Promise<string> {
  if (!/^apool-/.test(pool) && !org) throw usageError('a pool name needs --org (or pass the apool- id)');
  return resolveAgentPoolId(client, org ?? '', pool);
}

/**
 * The one item of a pool (an agent, a token) that `wanted` names: its id, or else its name (or
 * description). Several of that name, or none, is a usage error that says what to give instead.
 */
export function pickPoolItem<T extends { id: string }>(
  items: T[],
  wanted: string,
  how: {
    pool: string;
    /** What the items are called: "agents", "tokens". */
    plural: string;
    /** "named", "described". */
    called: string;
    nameOf: (item: T) => string | null | undefined;
    /** How one is listed in the error about several: its id by default. */
    describe?: (item: T) => string;
    /** The error when none is: what to run to see them. */
    missing: string;
  },
): T {
  const byId = items.find((i) => i.id === wanted);
  if (byId) return byId;
  const byName = items.filter((i) => how.nameOf(i) === wanted);
  if (byName.length > 1)
    throw usageError(
      `${byName.length} ${how.plural} of pool ${how.pool} are ${how.called} "${wanted}": give the id (${byName
        .map(how.describe ?? ((i) => i.id))
        .join(', ')})`,
    );
  if (byName.length === 0) throw usageError(how.missing);
  return byName[0];
}
