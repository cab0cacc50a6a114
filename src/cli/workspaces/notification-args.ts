import type { BerthClient } from '../../client/client.js';
import { membershipsApi } from '../../client/memberships.js';
import {
  NotificationConfigurationsClient,
  type NotificationConfiguration,
} from '../../client/notification-configurations.js';
import { WorkspacesClient } from '../../client/workspaces.js';
import { notFound } from '../../domain/common/errors.js';
import { Flags } from '../oclif.js';
import { parseWorkspaceArg } from './resolve-workspace.js';

/** The workspace of `berth workspace notifications ...`: its id and organization. */
export async function notificationWorkspace(
  client: BerthClient,
  arg: string,
  org: string | undefined,
): Promise<{ id: string; name: string; organization: string }> {
  const doc = await new WorkspacesClient(client).get(parseWorkspaceArg(arg, org));
  const orgRel = doc.data.relationships?.organization?.data;
  return {
    id: doc.data.id,
    name: String(doc.data.attributes.name),
    organization: orgRel && !Array.isArray(orgRel) ? orgRel.id : (org ?? ''),
  };
}

/** One of the workspace's configurations, by `nc-` id or by name. */
export async function findNotification(
  client: BerthClient,
  workspace: { id: string; name: string },
  ref: string,
): Promise<NotificationConfiguration> {
  const all = await new NotificationConfigurationsClient(client).list(workspace.id);
  const found = all.find((nc) => nc.id === ref) ?? all.find((nc) => nc.attributes.name === ref);
  if (!found) throw notFound(`${workspace.name} has no notification configuration ${ref}`);
  return found;
}

/** The ids of organization members named by username or email (`--user`). */
export async function memberUserIds(client: BerthClient, org: string, refs: string[]): Promise<string[]> {
  const api = membershipsApi(client);
  const ids: string[] = [];
  for (const ref of refs) {
    const m = await api.resolve(org, ref);
    const user = m.membership.relationships?.user?.data;
    if (user && !Array.isArray(user)) ids.push(user.id);
  }
  return ids;
}

/** Usernames of the organization's members, by user id (for showing whom a configuration mails). */
export async function usernamesById(client: BerthClient, org: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const m of await membershipsApi(client).list(org)) {
    const user = m.membership.relationships?.user?.data;
    if (user && !Array.isArray(user) && m.username) out.set(user.id, m.username);
  }
  return out;
}

/** The settings `add` and `update` share. */
export const notificationFlags = {
  url: Flags.string({ description: 'where to POST (generic, slack, microsoft-teams): an http(s) URL' }),
  'signing-token': Flags.string({
    description: 'generic only: the key of the X-TFE-Notification-Signature HMAC-SHA512 of each body (write-only)',
  }),
  trigger: Flags.string({
    description:
      'an event to notify (repeat it): run:created, run:planning, run:needs_attention, run:applying, run:completed, run:errored, assessment:drifted, assessment:failed, assessment:check_failure, workspace:auto_destroy_reminder, workspace:auto_destroy_run_results',
    multiple: true,
  }),
  user: Flags.string({ description: 'email only: a member to mail, by username or email (repeat it)', multiple: true }),
  email: Flags.string({
    description: 'email only, self-hosted edition: an address to mail (repeat it)',
    multiple: true,
  }),
  enabled: Flags.boolean({
    description: 'send notifications (enabling one that POSTs first sends it a verification); --no-enabled pauses it',
    allowNo: true,
  }),
};
