import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { runTriggerTable } from '../../../cli/views/run-triggers.js';
import { workspaceIds } from '../../../cli/workspaces/workspace-ids.js';
import type { Resource } from '../../../client/jsonapi.js';
import {
  RunTriggersClient,
  type RunTriggerAttributes,
  type RunTriggerDirection,
} from '../../../client/run-triggers.js';

export default class WorkspaceTriggersList extends BerthCommand<typeof WorkspaceTriggersList> {
  static override summary =
    "List a workspace's run triggers: the sources whose applies queue its runs, and the workspaces it triggers.";
  static override description = `Each row is SOURCE → TARGET: an applied run of SOURCE queues a run in TARGET (which applies by itself only when TARGET's auto-apply-run-trigger is on). Inbound rows (the workspace is the target) come first, then outbound ones; --direction shows one of them. --json prints the run-triggers resources.`;
  static override examples = [
    '<%= config.bin %> workspace triggers list app-prod --org acme',
    '<%= config.bin %> workspace triggers list acme/network --direction outbound --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    direction: Flags.string({
      description: 'inbound: its sources; outbound: the workspaces it triggers (default: both)',
      options: ['inbound', 'outbound'],
    }),
    ...limitFlag,
  };

  async run(): Promise<void> {
    const client = await this.client();
    const [id] = await workspaceIds(client, [this.args.workspace], this.flags.org);
    const triggers = new RunTriggersClient(client);
    const directions: RunTriggerDirection[] = this.flags.direction
      ? [this.flags.direction as RunTriggerDirection]
      : ['inbound', 'outbound'];
    const all: Resource<RunTriggerAttributes>[] = [];
    for (const d of directions) all.push(...(await triggers.list(id, d, { limit: this.flags.limit })));
    this.print(all, () => (all.length === 0 ? 'No run triggers.' : runTriggerTable(all)));
  }
}
