import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { tagBindingTable } from '../../../cli/views/project.js';
import { WorkspaceRelationsClient } from '../../../client/relations.js';
import { formatTagPairs, planTagBindings } from '../../../client/tag-binding-changes.js';

export default class WorkspaceTagBindingsRemove extends BerthCommand<typeof WorkspaceTagBindingsRemove> {
  static override summary = 'Remove key-value tags of a workspace by key.';
  static override description =
    'Removes only the keys named (the workspace keeps its other tags); a key the workspace does not bind itself is an error (exit 3) and nothing changes. Tags inherited from the project are removed on the project. Prints the tags the workspace keeps; --json prints them as an array.';
  static override examples = [
    '<%= config.bin %> workspace tag-bindings remove app-prod env --org acme',
    '<%= config.bin %> workspace tag-bindings remove acme/app-prod env team --json',
  ];
  static override strict = false;
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    keys: Args.string({ description: 'KEY ... (one or more)' }),
  };

  async run(): Promise<void> {
    const keys = this.positionals.slice(1);
    if (keys.length === 0)
      throw usageError('give at least one key: berth workspace tag-bindings remove WORKSPACE KEY ...');
    const relations = new WorkspaceRelationsClient(await this.client());
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    const current = await relations.tagBindings(ref);
    const plan = planTagBindings(current, { remove: keys }, `workspace ${this.args.workspace}`);
    await relations.replaceTagBindings(ref, plan.next);
    const kept = await relations.tagBindings(ref);
    this.print(
      kept,
      () =>
        `Removed ${formatTagPairs(plan.removed)}.\n${kept.length === 0 ? 'No tags left.' : `Keeps:\n${tagBindingTable(kept)}`}`,
    );
  }
}
