import { ConsumerChangeCommand } from '../../cli/workspaces/consumer-change.js';

export default class RemoteStateSet extends ConsumerChangeCommand {
  static override summary = "Make exactly these workspaces the consumers of a workspace's state.";
  static override description =
    'Only while the workspace does not share its state with the whole organization (global remote state off). Prints the consumers afterwards.';
  static override examples = ['<%= config.bin %> remote-state set network app-a app-b --org acme'];

  protected readonly change = 'set';
}
