import { Args } from '@oclif/core';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/prompts.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { workspaceIds } from '../../cli/workspace-ids.js';
import { workspaceTable } from '../../cli/views/workspace.js';
import { WorkspaceRelationsClient } from '../../client/relations.js';

export default class RemoteStateSet extends BerthCommand<typeof RemoteStateSet> {
  static override summary = "Make exactly these workspaces the consumers of a workspace's state.";
  static override description = 'Only while the workspace does not share its state with the whole organization (global remote state off). Prints the consumers afterwards.';
  static override examples = ['<%= config.bin %> remote-state set network app-a app-b --org acme'];
  static override strict = false;
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    consumers: Args.string({ description: 'CONSUMER ... workspaces (ws- ids, names in --org, or ORG/NAME)' }),
  };

  async run(): Promise<void> {
    const consumers = this.positionals.slice(1);
    if (consumers.length === 0) throw usageError('give at least one consumer workspace: berth remote-state set WORKSPACE CONSUMER ...');
    const client = await this.client();
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    const org = 'organization' in ref ? ref.organization : this.flags.org;
    const relations = new WorkspaceRelationsClient(client);
    await relations.changeConsumers(ref, 'set', await workspaceIds(client, consumers, org));
    const list = await relations.consumers(ref);
    this.print(list, () => (list.length === 0 ? 'No remote state consumers.' : workspaceTable(list)));
  }
}
