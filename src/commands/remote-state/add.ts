import { ConsumerChangeCommand } from '../../cli/workspaces/consumer-change.js';

export default class RemoteStateAdd extends ConsumerChangeCommand {
  static override summary = "Allow workspaces to read a workspace's state (existing consumers are kept).";
  static override description =
    'Only while the workspace does not share its state with the whole organization (global remote state off). Prints the consumers afterwards.';
  static override examples = ['<%= config.bin %> remote-state add network app-a app-b --org acme'];

  protected readonly change = 'add';
}
