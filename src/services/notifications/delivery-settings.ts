import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { Tx } from '../../store/transaction.js';
import { writeTransaction } from '../../store/transaction.js';
import type { Resolver } from './destination-address.js';

/**
 * How this instance delivers notifications. Stored in the database (the `settings` row
 * `notification-private-destinations`, set by `berth serve --notification-private-destinations`):
 * whether a notification URL may name a private or loopback address. Unset, the edition
 * decides: allowed on the self-hosted edition (a Terraform Enterprise's receivers are usually on
 * its own network), refused on the hosted one (a tenant must not reach the instance's network).
 * The rest is serve's, not stored (InstanceSettings.notifications): the SMTP server, the URL
 * links in payloads name, the time a delivery may take.
 */
export const PRIVATE_DESTINATIONS_KEY = 'notification-private-destinations';

export interface NotificationDeliveryOptions {
  /** `smtp://` or `smtps://` URL of the SMTP server email notifications go through (`serve --smtp-url`). */
  smtpUrl?: string;
  /** The sender of notification emails (default `berth@<the SMTP URL's host>`). */
  emailFrom?: string;
  /** berth's URL as clients reach it, for links in payloads (default http://localhost:8080). */
  baseUrl?: string;
  /** Milliseconds one delivery (HTTP request or SMTP session) may take (default 10 s). */
  timeoutMs?: number;
  /** Resolves host names (tests give one; default the system's). */
  resolve?: Resolver;
}

export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
export const DEFAULT_BASE_URL = 'http://localhost:8080';

export async function privateDestinationsAllowed(
  db: Kysely<DB> | Tx,
  edition: 'self-hosted' | 'hosted',
): Promise<boolean> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', PRIVATE_DESTINATIONS_KEY)
    .executeTakeFirst();
  if (row) return row.value === 'allow';
  return edition === 'self-hosted';
}

/** Stores the choice (`serve --notification-private-destinations allow|deny`). */
export async function savePrivateDestinations(db: Kysely<DB>, value: 'allow' | 'deny'): Promise<void> {
  await writeTransaction(db, async (tx) => {
    await tx
      .insertInto('settings')
      .values({ key: PRIVATE_DESTINATIONS_KEY, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  });
}
