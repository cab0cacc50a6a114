import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Variables of a variable set get a `version_id` (go-tfe's `VariableSetVariable.VersionID`): a
 * fresh value on create and on every update, as workspace variables have had since 031. Each
 * existing variable gets a fresh value of its own.
 *
 * Where a set applies (`varset_workspaces`, `varset_projects`) gets a `seq`, the position of the
 * workspace or project among the set's, so that they are listed in the order they were added.
 * The rows already stored keep the order they were listed in until now (by id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('varset_variables')
    .addColumn('version_id', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const ids = await db.selectFrom('varset_variables').select('id').execute();
  for (const { id } of ids)
    await db
      .updateTable('varset_variables')
      .set({ version_id: randomBytes(18).toString('hex') })
      .where('id', '=', id)
      .execute();

  for (const [table, column] of [
    ['varset_workspaces', 'workspace_id'],
    ['varset_projects', 'project_id'],
  ] as const) {
    await db.schema
      .alterTable(table)
      .addColumn('seq', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // Position by id within the set: 1, 2, ... (the order they were listed in before).
    await db
      .updateTable(table)
      .set((eb) => ({
        seq: eb
          .selectFrom(`${table} as o`)
          .select((o) => o.fn.countAll().as('n'))
          .whereRef('o.varset_id', '=', `${table}.varset_id`)
          .whereRef(`o.${column}`, '<=', `${table}.${column}`),
      }))
      .execute();
  }
}
