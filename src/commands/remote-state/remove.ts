import { ConsumerChangeCommand } from '../../cli/workspaces/consumer-change.js';

export default class RemoteStateRemove extends ConsumerChangeCommand {
  static override summary = "Stop workspaces from reading a workspace's state (absent ones are ignored).";
  static override description =
    'Only while the workspace does not share its state with the whole organization (global remote state off). Prints the consumers afterwards.';
  static override examples = ['<%= config.bin %> remote-state remove network app-a app-b --org acme'];

  protected readonly change = 'remove';
}
