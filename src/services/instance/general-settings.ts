import type { Kysely } from 'kysely';
import * as v from 'valibot';
import { bool, checkAttributes, nullable } from '../../domain/common/attributes.js';
import { isSiteAdmin } from '../../domain/permissions/actor.js';
import { notFound } from '../../domain/common/errors.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';

/**
 * Terraform Enterprise's general settings of the instance (`/api/v2/admin/general-settings`), as
 * far as berth has them: `default-remote-state-access`, the `global-remote-state` of a workspace
 * created without one (the spec: "on the self-hosted edition an administrator can choose the
 * default for new workspaces when omitted"). Self-hosted edition and site administrators only;
 * everyone else gets the 404 of a path that does not exist, as for every admin path.
 */
export interface GeneralSettings {
  defaultRemoteStateAccess: boolean;
}

export interface GeneralSettingsInput {
  defaultRemoteStateAccess?: boolean;
}

const REMOTE_STATE_KEY = 'default-remote-state-access';

/**
 * The attributes of a `PATCH`. Terraform Enterprise's other general settings (rate limits,
 * timeouts, organization ceilings) are not berth's: go-tfe sends some of them as null on every
 * update, so they are let through and change nothing.
 */
const schema = v.looseObject({ 'default-remote-state-access': nullable(bool()) });

export function parseGeneralSettings(attributes: unknown): GeneralSettingsInput {
  const a = checkAttributes(schema, attributes);
  return { defaultRemoteStateAccess: a['default-remote-state-access'] ?? undefined };
}

function requireAdministrator(ctx: ServiceContext): void {
  if (ctx.settings.edition !== 'self-hosted' || !isSiteAdmin(ctx.actor))
    throw notFound('no such resource, or you are not a site administrator of a self-hosted berth');
}

/**
 * The `global-remote-state` of a new workspace that does not set it. Hosted: false (the spec's
 * default). Self-hosted: what a site administrator chose, else true, Terraform Enterprise's own
 * default for `default-remote-state-access` (the tfe provider's `tfe_admin_settings_general`
 * documents and defaults it so): a workspace created without the attribute must read back as on
 * Terraform Enterprise. Read in the create's own transaction, so that every instance on one
 * database follows a change at once.
 */
export async function defaultRemoteStateAccess(db: Kysely<DB>, ctx: ServiceContext): Promise<boolean> {
  if (ctx.settings.edition !== 'self-hosted') return false;
  const row = await db.selectFrom('settings').select('value').where('key', '=', REMOTE_STATE_KEY).executeTakeFirst();
  return row ? row.value === 'true' : true;
}

export async function getGeneralSettings(ctx: ServiceContext): Promise<GeneralSettings> {
  requireAdministrator(ctx);
  return { defaultRemoteStateAccess: await defaultRemoteStateAccess(ctx.db, ctx) };
}

export async function updateGeneralSettings(
  ctx: ServiceContext,
  input: GeneralSettingsInput,
): Promise<GeneralSettings> {
  requireAdministrator(ctx);
  return writeTransaction(ctx, async (tx) => {
    if (input.defaultRemoteStateAccess !== undefined) {
      const value = String(input.defaultRemoteStateAccess);
      await tx
        .insertInto('settings')
        .values({ key: REMOTE_STATE_KEY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    }
    return { defaultRemoteStateAccess: await defaultRemoteStateAccess(tx, ctx) };
  });
}
