import { writeFileSync } from 'node:fs';
import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { stateVersionOf } from '../../cli/workspaces/state-version-of.js';
import { WorkspaceStateClient } from '../../client/state.js';
import { BerthError } from '../../domain/common/errors.js';
import { plural } from '../../domain/common/plural.js';

export default class StatePull extends BerthCommand<typeof StatePull> {
  static override summary = 'Download the workspace’s current state (or an earlier version), to FILE or stdout.';
  static override description =
    'With --version, downloads that state version of the workspace (berth state list shows them) instead of the current one: a version still pending upload, or whose state was deleted, has nothing to download (exit 5).';
  static override examples = [
    '<%= config.bin %> state pull app-prod --org acme > terraform.tfstate',
    '<%= config.bin %> state pull acme/app-prod backup.tfstate',
    '<%= config.bin %> state pull acme/app-prod --version sv-abcdEFGH12345678 old.tfstate',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    file: Args.string({ description: 'where to write the state (default: stdout)' }),
  };
  static override flags = {
    version: Flags.string({
      description: 'a state version (sv-…) of the workspace to download instead of the current one',
    }),
  };

  async run(): Promise<void> {
    const state = new WorkspaceStateClient(await this.client());
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const sv = this.flags.version
      ? await stateVersionOf(state, id, this.args.workspace, this.flags.version)
      : (await state.currentStateVersion(id)).data;
    // The current version is a finalized one: it has a download URL. An earlier one may not.
    const url = sv.attributes['hosted-state-download-url'];
    if (!url)
      throw new BerthError([
        {
          status: 422,
          title: 'refused',
          detail: `state version ${sv.id} has no state to download (status ${String(sv.attributes.status)})`,
        },
      ]);
    const body = await state.content(url);
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
