import type { VariableFields } from '../../domain/variables/variable.js';
import { openValue, sealValue, type SealedTable } from '../../store/secrets/sealed-values.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';

/**
 * Sensitive values at rest: what workspace variables and the variables of sets store as a value
 * (sealed when sensitive: store/secrets/), and the value a run is given. Only these two need the
 * key; every answer withholds sensitive values anyway, so reading, listing and changing anything
 * else of a variable never does.
 */

/** The value columns of a stored variable. */
export interface StoredValue {
  value: string;
  sealed: number;
}

/**
 * The value columns a create or an update of row `id` writes: `next` the variable it makes,
 * `given` the value the request gave (if any), `stored` the row's columns before an update.
 * - not sensitive: the value, in clear;
 * - sensitive with a value given, or created: that value, sealed;
 * - sensitive, no value given, already sealed: the stored ciphertext, untouched (it stays bound
 *   to the row, whatever else changes), so an update of a description needs no key;
 * - sensitive, no value given, stored in clear (made sensitive now, or by an older berth): sealed now.
 */
export async function storedValue(
  ctx: ServiceContext,
  tx: Tx,
  table: SealedTable,
  id: string,
  next: VariableFields,
  given: string | undefined,
  stored?: StoredValue,
): Promise<StoredValue> {
  if (!next.sensitive) return { value: next.value, sealed: 0 };
  if (given === undefined && stored?.sealed === 1) return { value: stored.value, sealed: 1 };
  const clear = given ?? stored?.value ?? next.value;
  return { value: await sealValue(ctx.db, tx, table, id, clear), sealed: 1 };
}

/** The fields of a stored variable for the rules of an update: a sealed value is never read (''). */
export const clearOrEmpty = (row: StoredValue): string => (row.sealed === 1 ? '' : row.value);

/** The value of a stored variable that a run is given (for the executor only): opened when sealed. */
export function runValue(db: ServiceContext['db'], table: SealedTable, row: StoredValue & { id: string }): string {
  return row.sealed === 1 ? openValue(db, table, row.id, row.value) : row.value;
}
