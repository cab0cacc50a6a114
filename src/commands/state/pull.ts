import { writeFileSync } from 'node:fs';
import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { WorkspaceStateClient } from '../../client/state.js';
import { plural } from '../../domain/common/plural.js';

export default class StatePull extends BerthCommand<typeof StatePull> {
  static override summary = 'Download the workspace’s current state, to FILE or stdout.';
  static override examples = [
    '<%= config.bin %> state pull app-prod --org acme > terraform.tfstate',
    '<%= config.bin %> state pull acme/app-prod backup.tfstate',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    file: Args.string({ description: 'where to write the state (default: stdout)' }),
  };

  async run(): Promise<void> {
    const state = new WorkspaceStateClient(await this.client());
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const { data: sv } = await state.currentStateVersion(id);
    // The current version is a finalized one: it has a download URL.
    const body = await state.content(sv.attributes['hosted-state-download-url']!);
    if (!this.args.file) {
      process.stdout.write(body);
      return;
    }
    writeFileSync(this.args.file, body);
    this.print(
      sv,
      () => `Wrote state serial ${sv.attributes.serial} (${plural(body.length, 'byte')}) to ${this.args.file}.`,
    );
  }
}
