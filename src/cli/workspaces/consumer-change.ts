import { Args } from '../oclif.js';
import { BerthCommand } from '../base-command.js';
import { projectNamesOf } from '../output/related-names.js';
import { usageError } from '../common/prompts.js';
import { parseWorkspaceArg } from './resolve-workspace.js';
import { workspaceTable } from '../views/workspace.js';
import { workspaceIds } from './workspace-ids.js';
import { WorkspaceRelationsClient } from '../../client/relations.js';

/** `remote-state add|remove|set WORKSPACE CONSUMER...`: one command body, three changes. */
export abstract class ConsumerChangeCommand extends BerthCommand<typeof ConsumerChangeCommand> {
  static override strict = false;
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    consumers: Args.string({ description: 'CONSUMER ... workspaces (ws- ids, names in --org, or ORG/NAME)' }),
  };

  protected abstract readonly change: 'add' | 'remove' | 'set';

  async run(): Promise<void> {
    const consumers = this.positionals.slice(1);
    if (consumers.length === 0)
      throw usageError(
        `give at least one consumer workspace: berth remote-state ${this.change} WORKSPACE CONSUMER ...`,
      );
    const client = await this.client();
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    const org = 'organization' in ref ? ref.organization : this.flags.org;
    const relations = new WorkspaceRelationsClient(client);
    await relations.changeConsumers(ref, this.change, await workspaceIds(client, consumers, org));
    const list = await relations.consumers(ref);
    const projects = this.jsonMode ? new Map<string, string>() : await projectNamesOf(client, list);
    this.print(list, () => (list.length === 0 ? 'No remote state consumers.' : workspaceTable(list, projects)));
  }
}
