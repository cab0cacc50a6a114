import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NewerSchemaError } from '../../src/store/database-errors.js';
import { openStore } from '../../src/store/open.js';
import { freshPostgresSchema } from '../helpers/store.js';

/**
 * On PostgreSQL too, a database a newer berth migrated is refused (issue 46): opening it names the
 * newer migration and the newest this build knows, and applies nothing.
 */
describe('a PostgreSQL database of a newer berth', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  beforeEach(async () => {
    schema = await freshPostgresSchema();
    const store = await openStore(schema.url);
    await store.db
      .insertInto('berth_migrations')
      .values({ version: 9001, name: '9001_from_the_future', applied_at: '2030-01-01T00:00:00.000Z' })
      .execute();
    await store.close();
  });
  afterEach(async () => schema.drop());

  it('is refused at open, naming both versions', async () => {
    const opened = openStore(schema.url);
    await expect(opened).rejects.toBeInstanceOf(NewerSchemaError);
    await expect(opened).rejects.toThrow(
      /was last upgraded by a newer berth: its schema has migration 9001 \(9001_from_the_future\), and this berth knows migrations up to \d+\./,
    );
  });
});
