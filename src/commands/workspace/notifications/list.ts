import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { notificationTable } from '../../../cli/views/notification-configurations.js';
import { notificationWorkspace, usernamesById } from '../../../cli/workspaces/notification-args.js';
import { NotificationConfigurationsClient } from '../../../client/notification-configurations.js';

export default class WorkspaceNotificationsList extends BerthCommand<typeof WorkspaceNotificationsList> {
  static override summary = "List a workspace's notification configurations and how their last delivery went.";
  static override description =
    'One row per configuration: its destination (a URL, or the people it mails), triggers, whether it is enabled, and its latest delivery (verification or notification). Needs admin access to the workspace. --json prints the notification-configurations resources.';
  static override examples = [
    '<%= config.bin %> workspace notifications list app-prod --org acme',
    '<%= config.bin %> workspace notifications list acme/app-prod --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ws = await notificationWorkspace(client, this.args.workspace, this.flags.org);
    const list = await new NotificationConfigurationsClient(client).list(ws.id);
    const email = list.some((nc) => nc.attributes['destination-type'] === 'email');
    const names = email && !this.flags.json ? await usernamesById(client, ws.organization) : new Map<string, string>();
    this.print(list, () => (list.length === 0 ? 'No notification configurations.' : notificationTable(list, names)));
  }
}
