import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { runTriggerTable } from '../../../cli/views/run-triggers.js';
import { triggerWorkspaces } from '../../../cli/workspaces/run-trigger-args.js';
import { otherEnd, RunTriggersClient } from '../../../client/run-triggers.js';
import { notFound } from '../../../domain/common/errors.js';

export default class WorkspaceTriggersRemove extends BerthCommand<typeof WorkspaceTriggersRemove> {
  static override summary = 'Remove run triggers of a workspace, by source.';
  static override description =
    "Each SOURCE's applies stop queueing runs in WORKSPACE. A SOURCE that is not a source of WORKSPACE is an error (exit 3) and nothing changes. Runs already queued stay. Prints the sources the workspace keeps.";
  static override examples = [
    '<%= config.bin %> workspace triggers remove app-prod network --org acme',
    '<%= config.bin %> workspace triggers remove acme/app-prod acme/network acme/database --json',
  ];
  static override strict = false;
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    sources: Args.string({ description: 'SOURCE ... (one or more workspaces)' }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { workspace, sources } = await triggerWorkspaces(client, this.positionals, this.flags.org, 'remove');
    const triggers = new RunTriggersClient(client);
    const inbound = await triggers.list(workspace.id, 'inbound');
    const ids = sources.map((s) => {
      const found = inbound.find((t) => otherEnd(t, 'inbound').id === s.id);
      if (!found) throw notFound(`${s.name} is not a run trigger source of ${workspace.name}`);
      return found.id;
    });
    for (const id of ids) await triggers.delete(id);
    const kept = await triggers.list(workspace.id, 'inbound');
    this.print(
      kept,
      () =>
        `Applies of ${sources.map((s) => s.name).join(', ')} no longer queue runs in ${workspace.name}.\n${
          kept.length === 0 ? 'No sources left.' : runTriggerTable(kept)
        }`,
    );
  }
}
