import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { LOCAL_SITE_ADMIN } from '../../src/domain/permissions/actor.js';
import { systemClock } from '../../src/domain/common/clock.js';
import { DEFAULT_SETTINGS, type ServiceContext } from '../../src/services/context.js';
import { createSiteAdminToken } from '../../src/services/identity/tokens.js';
import { lockWorkspace } from '../../src/services/workspaces/workspace-locks.js';
import { organizationLockKey, WRITE_LOCK_KEY } from '../../src/store/kind.js';
import { openStore, type Store } from '../../src/store/open.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { freshPostgresSchema, TEST_DATABASE_URL } from '../helpers/store.js';

/**
 * On PostgreSQL a write takes the lock of its organization (store/transaction.ts): a write held
 * open in organization A delays neither a write in organization B nor a read, while a second
 * write in A, and a write that spans organizations (creating or renaming one), wait for it.
 *
 * Advisory locks belong to a whole database, and the rest of the suite runs in parallel in other
 * schemas of the test database: their writes take the same global key. This file therefore works
 * in a database of its own when it may create one, so that no other test's write can queue
 * between its steps.
 */
async function isolatedDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  const name = `berth_lock_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`create database ${name}`);
  } catch {
    await admin.end();
    return freshPostgresSchema();
  }
  const u = new URL(TEST_DATABASE_URL!);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/** The two halves of an advisory lock key as pg_locks shows them (classid, objid). */
function lockIds(key: string | number): [string, string] {
  const unsigned = BigInt.asUintN(64, BigInt(key));
  return [(unsigned >> 32n).toString(), (unsigned & 0xffffffffn).toString()];
}

/** Waits (up to 15 s) until some session of the monitor's database waits for the advisory lock `key`. */
async function waitForWaiter(client: pg.Client, key: string | number): Promise<void> {
  const [classid, objid] = lockIds(key);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_locks
        where locktype = 'advisory' and objsubid = 1 and not granted
          and database = (select oid from pg_database where datname = current_database())
          and classid = $1::bigint::oid and objid = $2::bigint::oid`,
      [classid, objid],
    );
    if (rows[0].n > 0) return;
    if (Date.now() > deadline) throw new Error(`nobody waits for advisory lock ${key}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** `p`, or a failure naming `what` when it takes longer than 15 s (it waits for a lock it should not). */
function within<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} waited for the other organization's write`)), 15_000);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Whether a promise has settled (after giving it a moment). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, 50));
  return done;
}

/** A raw connection holding organization `organizationId`'s write lock, as a berth write in it does. */
async function holdOrganization(url: string, organizationId: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query(`select pg_advisory_xact_lock_shared(${WRITE_LOCK_KEY})`);
  await client.query('select pg_advisory_xact_lock($1::bigint)', [organizationLockKey(organizationId)]);
  return {
    release: async () => {
      await client.query('commit');
      await client.end();
    },
  };
}

const workspace = (name: string) => ({ data: { type: 'workspaces', attributes: { name } } });
const organization = (name: string) => ({ data: { type: 'organizations', attributes: { name, email: 'o@x.test' } } });

describe.skipIf(!TEST_DATABASE_URL)('the write lock of one organization (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof isolatedDatabase>>;
  let monitor: pg.Client;

  beforeAll(async () => {
    database = await isolatedDatabase();
    monitor = new pg.Client({ connectionString: database.url });
    await monitor.connect();
  });
  afterAll(async () => {
    await monitor?.end();
    await database?.drop();
  });

  describe('in one process: a service write paused before its commit', () => {
    let store: Store;
    let app: ReturnType<typeof createApp>;
    let token: string;
    const ctx = (): ServiceContext => ({
      db: store.db,
      actor: LOCAL_SITE_ADMIN,
      clock: systemClock,
      settings: DEFAULT_SETTINGS,
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await app.fetch(
        new Request(`http://berth.test/api/v2${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      const text = await res.text();
      return { status: res.status, text, body: text === '' ? null : JSON.parse(text) };
    };

    beforeAll(async () => {
      store = await openStore(database.url);
      app = createApp({ db: store.db, onUnexpectedError: (e) => console.error(e) });
      token = (await createSiteAdminToken(ctx(), 'tests')).token!;
      for (const org of ['alpha', 'beta']) {
        expect((await call('POST', '/organizations', organization(org))).status).toBe(201);
        for (const ws of ['one', 'two']) {
          expect((await call('POST', `/organizations/${org}/workspaces`, workspace(ws))).status).toBe(201);
        }
      }
    });
    afterAll(async () => {
      await store?.close();
    });

    it('lets writes in another organization through, and holds back writes in its own and global ones', async () => {
      const alpha = await store.db
        .selectFrom('organizations')
        .select('id')
        .where('name', '=', 'alpha')
        .executeTakeFirstOrThrow();
      let reached!: () => void;
      const inside = new Promise<void>((r) => (reached = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const held = lockWorkspace(
        {
          ...ctx(),
          commitHook: {
            beforeCommit: () => {
              reached();
              return gate;
            },
            afterCommit: () => undefined,
          },
        },
        { organization: 'alpha', name: 'one' },
        'held open',
      );
      await inside;
      try {
        // Organization B: creates and locks complete while A's transaction is open.
        const created = await within(
          'a create in B',
          call('POST', '/organizations/beta/workspaces', workspace('three')),
        );
        expect(created.status, created.text).toBe(201);
        const locked = await within(
          'a lock in B',
          call('POST', `/workspaces/${created.body.data.id}/actions/lock`, { reason: 'b' }),
        );
        expect(locked.status, locked.text).toBe(200);
        // Reads never wait.
        expect((await call('GET', '/organizations/alpha/workspaces/two')).status).toBe(200);
        expect(await settled(held)).toBe(false);

        // Organization A: another workspace, so only the organization's lock is in the way.
        const two = await call('GET', '/organizations/alpha/workspaces/two');
        const second = call('POST', `/workspaces/${two.body.data.id}/actions/lock`, { reason: 'a' });
        await waitForWaiter(monitor, organizationLockKey(alpha.id));
        expect(await settled(second)).toBe(false);

        // A write that is not confined to one organization waits for every one of them.
        const global = call('POST', '/organizations', organization('gamma'));
        await waitForWaiter(monitor, WRITE_LOCK_KEY);
        expect(await settled(global)).toBe(false);

        release();
        expect((await held).locked).toBe(true);
        const [a, g] = await Promise.all([second, global]);
        expect(a.status, a.text).toBe(200);
        expect(g.status, g.text).toBe(201);
      } finally {
        release();
      }
    });
  });

  describe('across processes: a berth serve instance and another instance holding a lock', () => {
    let serve: ServeProcess;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${serve.url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${serve.token}`, 'Content-Type': 'application/vnd.api+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, text, body: text === '' ? null : JSON.parse(text) };
    };
    const orgId = async (name: string) => {
      const res = await call('GET', `/organizations/${name}`);
      expect(res.status, res.text).toBe(200);
      return res.body.data.attributes['external-id'] as string;
    };

    beforeAll(async () => {
      // A schema of its own in the same database: the organizations above stay out of the way.
      const schema = `s_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const u = new URL(database.url);
      u.searchParams.set('options', `-c search_path=${schema}`);
      serve = await startServe(u.toString());
      for (const org of ['north', 'south']) {
        expect((await call('POST', '/organizations', organization(org))).status).toBe(201);
      }
    });
    afterAll(async () => {
      await serve?.stop();
    });

    it('takes the same key on every instance: B goes through, A waits', async () => {
      const hold = await holdOrganization(database.url, await orgId('north'));
      try {
        const south = await within('a create in B', call('POST', '/organizations/south/workspaces', workspace('s1')));
        expect(south.status, south.text).toBe(201);
        const north = call('POST', '/organizations/north/workspaces', workspace('n1'));
        await waitForWaiter(monitor, organizationLockKey(await orgId('north')));
        expect(await settled(north)).toBe(false);
        await hold.release();
        const done = await north;
        expect(done.status, done.text).toBe(201);
      } finally {
        await hold.release().catch(() => undefined);
      }
    });

    it('keys an organization by its id: a rename waits for its writes, and its new name takes the same key', async () => {
      const id = await orgId('north');
      let hold = await holdOrganization(database.url, id);
      const renamed = call('PATCH', '/organizations/north', {
        data: { type: 'organizations', attributes: { name: 'polar' } },
      });
      try {
        await waitForWaiter(monitor, WRITE_LOCK_KEY);
        expect(await settled(renamed)).toBe(false);
      } finally {
        await hold.release();
      }
      const r = await renamed;
      expect(r.status, r.text).toBe(200);

      hold = await holdOrganization(database.url, id);
      try {
        const polar = call('POST', '/organizations/polar/workspaces', workspace('p1'));
        await waitForWaiter(monitor, organizationLockKey(id));
        expect(await settled(polar)).toBe(false);
        await hold.release();
        const done = await polar;
        expect(done.status, done.text).toBe(201);
      } finally {
        await hold.release().catch(() => undefined);
      }
    });
  });
});
