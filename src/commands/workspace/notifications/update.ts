import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { notificationDetail } from '../../../cli/views/notification-configurations.js';
import {
  findNotification,
  memberUserIds,
  notificationFlags,
  notificationWorkspace,
  usernamesById,
} from '../../../cli/workspaces/notification-args.js';
import { emailUserIds, NotificationConfigurationsClient } from '../../../client/notification-configurations.js';

export default class WorkspaceNotificationsUpdate extends BerthCommand<typeof WorkspaceNotificationsUpdate> {
  static override summary = 'Change a notification configuration of a workspace.';
  static override description =
    'Only what is given changes; --trigger, --user and --email replace their lists (--no-triggers empties the triggers). An enabled configuration that POSTs is sent a verification first, and is left unchanged if its URL does not answer 2xx. Its type cannot change: remove it and add another.';
  static override examples = [
    '<%= config.bin %> workspace notifications update app-prod deploys --trigger run:errored --org acme',
    '<%= config.bin %> workspace notifications update acme/app-prod deploys --no-enabled',
    '<%= config.bin %> workspace notifications update acme/app-prod oncall --user alice --user bob --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    notification: Args.string({ description: 'its name or nc- id', required: true }),
  };
  static override flags = {
    name: Flags.string({ description: 'a new name' }),
    'no-triggers': Flags.boolean({ description: 'notify no event (the configuration stays)', default: false }),
    ...notificationFlags,
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ws = await notificationWorkspace(client, this.args.workspace, this.flags.org);
    const current = await findNotification(client, ws, this.args.notification);
    const attributes: Record<string, unknown> = {};
    if (this.flags.name !== undefined) attributes.name = this.flags.name;
    if (this.flags.enabled !== undefined) attributes.enabled = this.flags.enabled;
    if (this.flags.url !== undefined) attributes.url = this.flags.url;
    if (this.flags['signing-token'] !== undefined) attributes.token = this.flags['signing-token'];
    if (this.flags['no-triggers']) attributes.triggers = [];
    else if (this.flags.trigger) attributes.triggers = this.flags.trigger;
    if (this.flags.email) attributes['email-addresses'] = this.flags.email;
    // The API clears the users of an update that names none: keep the current ones unless given.
    const userIds = this.flags.user
      ? await memberUserIds(client, ws.organization, this.flags.user)
      : emailUserIds(current);
    const nc = await new NotificationConfigurationsClient(client).update(current.id, { attributes, userIds });
    const names = this.flags.json ? new Map<string, string>() : await usernamesById(client, ws.organization);
    this.print(nc, () => `Updated notification ${nc.attributes.name} of ${ws.name}.\n${notificationDetail(nc, names)}`);
  }
}
