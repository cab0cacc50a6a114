import { invalid } from '../../domain/common/errors.js';
import { globalKeyTakenDetail } from '../../domain/variables/varset.js';
import type { Tx } from '../../store/transaction.js';

/**
 * HCP Terraform does not allow two global variable sets to hold a variable of the same key (and
 * category), so global sets never conflict (docs/api.md, "Variable sets"). Called at the end of
 * each write that may make such a pair (a variable added to or changed in a set, a set made
 * global, a set created global with variables): when the set `varsetId` is global and one of its
 * variables has the key and category of a variable of another global set of its organization,
 * a 422 at `pointerFor(key, category)` (or at `/data/attributes/global` when it names none), and
 * the write's transaction changes nothing. Only the variables the write adds or renames (`keys`),
 * or all of the set's when it becomes global, are checked: a clash stored before berth enforced
 * this does not stop an unrelated change.
 */
export async function refuseGlobalKeyClash(
  tx: Tx,
  varsetId: string,
  keys: 'all' | { key: string; category: string }[],
  pointerFor: (key: string, category: string) => string | undefined = () => undefined,
): Promise<void> {
  if (keys !== 'all' && keys.length === 0) return;
  let query = tx
    .selectFrom('varset_variables as mine')
    .innerJoin('varsets as me', 'me.id', 'mine.varset_id')
    .innerJoin('varset_variables as theirs', (join) =>
      join.onRef('theirs.key', '=', 'mine.key').onRef('theirs.category', '=', 'mine.category'),
    )
    .innerJoin('varsets as other', 'other.id', 'theirs.varset_id')
    .select(['mine.key', 'mine.category', 'other.name'])
    .where('mine.varset_id', '=', varsetId)
    .where('me.global', '=', 1)
    .where('other.global', '=', 1)
    .where('other.id', '!=', varsetId)
    .whereRef('other.organization_id', '=', 'me.organization_id');
  if (keys !== 'all')
    query = query.where((eb) =>
      eb.or(keys.map((k) => eb.and([eb('mine.key', '=', k.key), eb('mine.category', '=', k.category)]))),
    );
  const clash = await query.orderBy('mine.seq').orderBy('other.name').executeTakeFirst();
  if (!clash) return;
  throw invalid(
    pointerFor(clash.key, clash.category) ?? '/data/attributes/global',
    globalKeyTakenDetail(clash.key, clash.category, clash.name),
  );
}
