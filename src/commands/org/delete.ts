import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/prompts.js';

export default class OrgDelete extends BerthCommand<typeof OrgDelete> {
  static override summary = 'Delete an organization and everything in it.';
  static override description = 'Asks to confirm on a terminal; elsewhere it refuses unless --yes is given.';
  static override examples = ['<%= config.bin %> org delete acme', '<%= config.bin %> org delete acme --yes'];
  static override args = { name: Args.string({ description: 'organization name', required: true }) };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    await client.organizations.get(this.args.name);
    await confirmDestructive(`delete organization ${this.args.name} and all its projects and workspaces`, this.flags);
    await client.organizations.delete(this.args.name);
    this.print(
      { id: this.args.name, type: 'organizations', deleted: true },
      () => `Deleted organization ${this.args.name}.`,
    );
  }
}
