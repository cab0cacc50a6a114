import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { notFound } from '../../domain/common/errors.js';
import {
  DEFAULT_STATE_URL_TTL_SECONDS,
  signedStateQuery,
  stateUrlValid,
  type StateFileKind,
  type StateUrlUse,
} from '../../domain/state/state-url.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';

/** The settings key of the instance's secret that signs hosted-state URLs. */
const KEY_SETTING = 'state_url_key';

const keys = new WeakMap<Kysely<DB>, Promise<string>>();

async function readKey(db: Kysely<DB>): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY_SETTING).executeTakeFirst();
  return row?.value;
}

/**
 * The instance's URL-signing secret: made once, at the first use, and kept in the settings table,
 * so that every `serve` and CLI on the same database signs and checks alike. When two make it at
 * once, the first stored wins and both read that one.
 */
async function loadKey(db: Kysely<DB>): Promise<string> {
  const known = await readKey(db);
  if (known) return known;
  const fresh = randomBytes(32).toString('base64url');
  await writeTransaction(db, (tx) =>
    tx
      .insertInto('settings')
      .values({ key: KEY_SETTING, value: fresh })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute(),
  );
  return (await readKey(db)) ?? fresh;
}

function urlKey(db: Kysely<DB>): Promise<string> {
  let key = keys.get(db);
  if (!key) {
    key = loadKey(db);
    keys.set(db, key);
    key.catch(() => keys.delete(db));
  }
  return key;
}

/** The instance's URL-signing secret, for the other signed URLs (configuration uploads, run logs). */
export function signingKey(db: Kysely<DB>): Promise<string> {
  return urlKey(db);
}

/** Signs the hosted-state URLs of state versions: the query string of one file's URL for one use. */
export type StateUrlSigner = (id: string, kind: StateFileKind, use: StateUrlUse) => string;

type UrlContext = Pick<ServiceContext, 'db' | 'clock' | 'settings'>;

/**
 * A signer for the URLs of one answer, valid `settings.stateUrlTtlSeconds` from now. Get it before
 * opening a transaction: the first use on a database stores the signing secret.
 */
export async function stateUrlSigner(ctx: UrlContext): Promise<StateUrlSigner> {
  const key = await urlKey(ctx.db);
  const now = ctx.clock.now();
  const ttl = ctx.settings.stateUrlTtlSeconds ?? DEFAULT_STATE_URL_TTL_SECONDS;
  return (id, kind, use) => signedStateQuery(key, id, kind, use, now, ttl);
}

/** The `expires` and `signature` of a hosted-state URL as requested. */
export interface StateUrlQuery {
  expires: string | undefined;
  signature: string | undefined;
}

/**
 * Checks a hosted-state URL: signed by this instance for this version, file and use, and not yet
 * expired. 404 otherwise, as for a version that does not exist: the URL says nothing more.
 */
export async function requireSignedStateUrl(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  id: string,
  kind: StateFileKind,
  use: StateUrlUse,
  query: StateUrlQuery,
): Promise<void> {
  const key = await urlKey(ctx.db);
  if (!stateUrlValid(key, id, kind, use, query.expires, query.signature, ctx.clock.now()))
    throw notFound('state version not found (or the URL has expired: read the state version again for a new one)');
}

/**
 * A synchronous check of hosted-state URLs with the instance's secret (loaded, or made, once):
 * what `serve`'s rate limiter counts such a URL by, without a database read per request.
 */
export async function stateUrlChecker(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
): Promise<(id: string, kind: StateFileKind, use: StateUrlUse, query: StateUrlQuery) => boolean> {
  const key = await urlKey(ctx.db);
  return (id, kind, use, query) => stateUrlValid(key, id, kind, use, query.expires, query.signature, ctx.clock.now());
}
