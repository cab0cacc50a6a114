import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { lastDelivery } from '../../../cli/views/notification-configurations.js';
import { findNotification, notificationWorkspace } from '../../../cli/workspaces/notification-args.js';
import { NotificationConfigurationsClient } from '../../../client/notification-configurations.js';

export default class WorkspaceNotificationsVerify extends BerthCommand<typeof WorkspaceNotificationsVerify> {
  static override summary = 'Send a notification configuration a verification now, and show the answer.';
  static override description =
    'A generic, Slack or Teams configuration gets a verification payload (enabled or not); an email one a verification email (recorded as skipped when serve has no SMTP server). A URL that does not answer 2xx is an error (exit 1) that says what it answered, and changes nothing.';
  static override examples = [
    '<%= config.bin %> workspace notifications verify app-prod deploys --org acme',
    '<%= config.bin %> workspace notifications verify acme/app-prod deploys --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    notification: Args.string({ description: 'its name or nc- id', required: true }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ws = await notificationWorkspace(client, this.args.workspace, this.flags.org);
    const nc = await findNotification(client, ws, this.args.notification);
    const verified = await new NotificationConfigurationsClient(client).verify(nc.id);
    this.print(verified, () => `Verified notification ${verified.attributes.name}: ${lastDelivery(verified)}.`);
  }
}
