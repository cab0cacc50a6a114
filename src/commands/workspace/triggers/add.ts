import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { runTriggerTable } from '../../../cli/views/run-triggers.js';
import { triggerWorkspaces } from '../../../cli/workspaces/run-trigger-args.js';
import type { Resource } from '../../../client/jsonapi.js';
import { RunTriggersClient, type RunTriggerAttributes } from '../../../client/run-triggers.js';

export default class WorkspaceTriggersAdd extends BerthCommand<typeof WorkspaceTriggersAdd> {
  static override summary = 'Make workspaces run triggers of a workspace: their applies queue its runs.';
  static override description = `Each SOURCE (a ws- id, ORG/NAME, or a NAME in the workspace's organization) becomes a source of WORKSPACE: when a run of SOURCE applies, WORKSPACE gets a run of its current configuration version, which waits for confirmation unless WORKSPACE's auto-apply-run-trigger is on (berth workspace update WORKSPACE --auto-apply-run-trigger). At most 20 sources per workspace; needs admin access to WORKSPACE and read access to each SOURCE. Prints the workspace's sources afterwards.`;
  static override examples = [
    '<%= config.bin %> workspace triggers add app-prod network database --org acme',
    '<%= config.bin %> workspace triggers add acme/app-prod acme/network --json',
  ];
  static override strict = false;
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    sources: Args.string({ description: 'SOURCE ... (one or more workspaces)' }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { workspace, sources } = await triggerWorkspaces(client, this.positionals, this.flags.org, 'add');
    const triggers = new RunTriggersClient(client);
    const added: Resource<RunTriggerAttributes>[] = [];
    for (const s of sources) added.push(await triggers.create(workspace.id, s.id));
    const inbound = await triggers.list(workspace.id, 'inbound');
    this.print(
      added,
      () =>
        `Applies of ${sources.map((s) => s.name).join(', ')} now queue runs in ${workspace.name}.\n${runTriggerTable(inbound)}`,
    );
  }
}
