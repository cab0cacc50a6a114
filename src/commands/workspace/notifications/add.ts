import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { notificationDetail } from '../../../cli/views/notification-configurations.js';
import {
  memberUserIds,
  notificationFlags,
  notificationWorkspace,
  usernamesById,
} from '../../../cli/workspaces/notification-args.js';
import { NotificationConfigurationsClient } from '../../../client/notification-configurations.js';

export default class WorkspaceNotificationsAdd extends BerthCommand<typeof WorkspaceNotificationsAdd> {
  static override summary = 'Add a notification configuration to a workspace: where its run events are sent.';
  static override description = `--type generic POSTs HCP Terraform's JSON payload to --url (signed with --signing-token, when given, in X-TFE-Notification-Signature); slack and microsoft-teams POST their webhook messages; email mails the --user members (and, on the self-hosted edition, --email addresses) through the SMTP server serve was given (--smtp-url). Enabled by default: one that POSTs is first sent a verification, and is not added if its URL does not answer 2xx. Needs admin access to the workspace. Deliveries are made by berth serve in the background, with retries; see docs/api.md, "Notification configurations".`;
  static override examples = [
    '<%= config.bin %> workspace notifications add app-prod deploys --type slack --url https://hooks.slack.com/services/T0/B0/X --trigger run:completed --trigger run:errored --org acme',
    '<%= config.bin %> workspace notifications add acme/app-prod audit-hook --type generic --url https://hooks.example.com/berth --signing-token s3cret --trigger run:created',
    '<%= config.bin %> workspace notifications add acme/app-prod oncall --type email --user alice --trigger run:needs_attention --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    name: Args.string({ description: 'the configuration\u2019s name', required: true }),
  };
  static override flags = {
    type: Flags.string({
      description: 'where it sends',
      options: ['generic', 'slack', 'microsoft-teams', 'email'],
      required: true,
    }),
    ...notificationFlags,
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ws = await notificationWorkspace(client, this.args.workspace, this.flags.org);
    const users = this.flags.user ? await memberUserIds(client, ws.organization, this.flags.user) : undefined;
    const nc = await new NotificationConfigurationsClient(client).create(ws.id, {
      attributes: {
        name: this.args.name,
        'destination-type': this.flags.type,
        enabled: this.flags.enabled ?? true,
        url: this.flags.url,
        token: this.flags['signing-token'],
        triggers: this.flags.trigger ?? [],
        'email-addresses': this.flags.email,
      },
      userIds: users,
    });
    const names = users?.length ? await usernamesById(client, ws.organization) : new Map<string, string>();
    this.print(nc, () => `Added notification ${nc.attributes.name} to ${ws.name}.\n${notificationDetail(nc, names)}`);
  }
}
