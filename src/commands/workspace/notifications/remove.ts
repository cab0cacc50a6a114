import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { findNotification, notificationWorkspace } from '../../../cli/workspaces/notification-args.js';
import { NotificationConfigurationsClient } from '../../../client/notification-configurations.js';

export default class WorkspaceNotificationsRemove extends BerthCommand<typeof WorkspaceNotificationsRemove> {
  static override summary = 'Remove a notification configuration of a workspace.';
  static override description =
    'Its deliveries still waiting are dropped. A name that is no configuration of the workspace is an error (exit 3).';
  static override examples = [
    '<%= config.bin %> workspace notifications remove app-prod deploys --org acme',
    '<%= config.bin %> workspace notifications remove acme/app-prod nc-AeUQ2zfKZzW9TiGZ --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    notification: Args.string({ description: 'its name or nc- id', required: true }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ws = await notificationWorkspace(client, this.args.workspace, this.flags.org);
    const nc = await findNotification(client, ws, this.args.notification);
    await new NotificationConfigurationsClient(client).delete(nc.id);
    this.print(
      { id: nc.id, name: nc.attributes.name, removed: true },
      () => `Removed notification ${nc.attributes.name} of ${ws.name}.`,
    );
  }
}
