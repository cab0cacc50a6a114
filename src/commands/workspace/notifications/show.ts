import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { notificationDetail } from '../../../cli/views/notification-configurations.js';
import { findNotification, notificationWorkspace, usernamesById } from '../../../cli/workspaces/notification-args.js';

export default class WorkspaceNotificationsShow extends BerthCommand<typeof WorkspaceNotificationsShow> {
  static override summary = 'Show one notification configuration of a workspace, by name (or nc- id).';
  static override description =
    'Its destination, triggers, whether it is enabled and its latest delivery response. --json prints the resource, delivery-responses included.';
  static override examples = [
    '<%= config.bin %> workspace notifications show app-prod deploys --org acme',
    '<%= config.bin %> workspace notifications show acme/app-prod nc-AeUQ2zfKZzW9TiGZ --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    notification: Args.string({ description: 'its name or nc- id', required: true }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ws = await notificationWorkspace(client, this.args.workspace, this.flags.org);
    const nc = await findNotification(client, ws, this.args.notification);
    const names = this.flags.json ? new Map<string, string>() : await usernamesById(client, ws.organization);
    this.print(nc, () => notificationDetail(nc, names));
  }
}
