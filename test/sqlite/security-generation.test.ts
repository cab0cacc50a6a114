import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/open.js';
import { securityGeneration } from '../../src/store/security-generation.js';
import { writeTransaction } from '../../src/store/transaction.js';
import { backupDatabase, restoreDatabase } from '../../src/store/backup.js';
import { LOCAL_SITE_ADMIN } from '../../src/domain/permissions/actor.js';
import { systemClock } from '../../src/domain/common/clock.js';
import { DEFAULT_SETTINGS, type ServiceContext } from '../../src/services/context.js';
import { createOrganization } from '../../src/services/organizations/organizations.js';
import { createUser } from '../../src/services/identity/users.js';
import { authenticate, createUserToken } from '../../src/services/identity/tokens.js';
import { cachedFacts, generationFor } from '../../src/services/identity/auth-cache.js';
import { tempDb } from '../helpers/cli.js';

/**
 * The security generation on SQLite files (migration 022, store/security-generation.ts): the
 * triggers (foreign-key cascades included), the reading connection's view of commits made by the
 * group commit's writer connection and by other processes, and restores.
 */
describe('the security generation of a SQLite file', () => {
  let tmp: ReturnType<typeof tempDb>;
  let store: Store;
  let ctx: ServiceContext;

  beforeEach(async () => {
    tmp = tempDb();
    store = await openStore(tmp.db);
    ctx = { db: store.db, actor: LOCAL_SITE_ADMIN, clock: systemClock, settings: DEFAULT_SETTINGS };
  });
  afterEach(async () => {
    await store.close();
    tmp.cleanup();
  });

  const generation = async () => (await securityGeneration(store.db))!;

  /** Runs SQL in another process on the same file, as the CLI in local mode or another tool would. */
  const inAnotherProcess = (statement: string) =>
    execFileSync(
      process.execPath,
      [
        '-e',
        `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(tmp.db)});
         d.pragma('busy_timeout = 10000'); d.prepare(${JSON.stringify(statement)}).run(); d.close();`,
      ],
      { cwd: join(__dirname, '..', '..') },
    );

  it("moves with the group commit's writer connection, with other processes, and not with other tables", async () => {
    const g0 = await generation();
    expect(await generation()).toEqual(g0);
    const user = await createUser(ctx, { username: 'alice', email: 'alice@example.com', isSiteAdmin: false });
    const g1 = await generation();
    expect(g1.n).toBeGreaterThan(g0.n);
    // Not a security table: the generation stays.
    await writeTransaction(store.db, (tx) => tx.insertInto('settings').values({ key: 'probe', value: '1' }).execute());
    expect(await generation()).toEqual(g1);
    inAnotherProcess(`update users set email = 'alice@elsewhere.example' where id = '${user.id}'`);
    const g2 = await generation();
    expect(g2.n).toBe(g1.n + 1);
    expect(g2.epoch).toBe(g0.epoch);
  });

  it('refuses a token deleted by another process on the next call', async () => {
    const user = await createUser(ctx, { username: 'bob', email: 'bob@example.com', isSiteAdmin: false });
    const { id, token } = await createUserToken(ctx, user.id, null);
    expect(await authenticate(store.db, token!)).toMatchObject({ userId: user.id });
    expect(await authenticate(store.db, token!)).toMatchObject({ userId: user.id });
    inAnotherProcess(`delete from tokens where id = '${id}'`);
    expect(await authenticate(store.db, token!)).toBeNull();
  });

  it('moves on every cascade of an organization deletion (teams, memberships, tokens)', async () => {
    const user = await createUser(ctx, { username: 'carol', email: 'carol@example.com', isSiteAdmin: false });
    await createOrganization(
      { ...ctx, actor: { kind: 'user', tokenId: null, userId: user.id, username: 'carol', siteAdmin: false } },
      {
        name: 'acme',
        email: 'acme@example.com',
      },
    );
    const count = async (table: 'teams' | 'team_members') =>
      Number(
        (
          await store.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const rows = (await count('teams')) + (await count('team_members'));
    expect(rows).toBeGreaterThanOrEqual(2);
    const before = await generation();
    // Straight on the database: only the triggers of the cascaded rows (and the organization's own) move it.
    await writeTransaction(store.db, (tx) => tx.deleteFrom('organizations').where('name', '=', 'acme').execute());
    expect((await count('teams')) + (await count('team_members'))).toBe(0);
    expect((await generation()).n).toBe(before.n + 1 + rows);
  });

  it('gives a database restored in place a new epoch, which empties the caches of a process that has it open', async () => {
    const backup = join(tmp.dir, 'backup.db');
    await backupDatabase(tmp.db, backup);
    let loads = 0;
    const cached = async () =>
      cachedFacts(store.db, await generationFor(store.db), 'test', 'k', () => Promise.resolve(++loads));
    expect(await cached()).toBe(1);
    expect(await cached()).toBe(1);
    const before = await generation();
    await restoreDatabase(backup, tmp.db, { force: true });
    const after = await generation();
    expect(after.epoch).not.toBe(before.epoch);
    expect(await cached()).toBe(2);
    expect(await cached()).toBe(2);
  });
});
