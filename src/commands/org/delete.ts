import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/prompts.js';

export default class OrgDelete extends BerthCommand<typeof OrgDelete> {
  static override summary = 'Delete an organization and everything in it.';
  static override description =
    'Says how many projects, workspaces and teams go with it, then asks to confirm on a terminal; elsewhere it refuses unless --yes is given. --dry-run says what would be deleted and deletes nothing.';
  static override examples = [
    '<%= config.bin %> org delete acme --dry-run',
    '<%= config.bin %> org delete acme',
    '<%= config.bin %> org delete acme --yes',
  ];
  static override args = { name: Args.string({ description: 'organization name', required: true }) };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
    'dry-run': Flags.boolean({ description: 'say what would be deleted, delete nothing', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    await client.organizations.get(this.args.name);
    const name = encodeURIComponent(this.args.name);
    const count = async (what: string) =>
      (await client.list(`/organizations/${name}/${what}`, {}, { pageSize: 1 })).pagination?.['total-count'] ?? 0;
    const contents = {
      projects: await count('projects'),
      workspaces: await count('workspaces'),
      teams: await count('teams'),
    };
    const summary = `organization ${this.args.name} with ${contents.projects} project(s), ${contents.workspaces} workspace(s) and ${contents.teams} team(s)`;
    if (this.flags['dry-run']) {
      this.print(
        { id: this.args.name, type: 'organizations', deleted: false, 'dry-run': true, 'would-delete': contents },
        () => `Dry run: deleting would remove ${summary}; nothing was deleted.`,
      );
      return;
    }
    this.note(`Deleting ${summary}.`);
    await confirmDestructive(`delete organization ${this.args.name} and all its projects and workspaces`, this.flags);
    await client.organizations.delete(this.args.name);
    this.print(
      { id: this.args.name, type: 'organizations', deleted: true },
      () => `Deleted organization ${this.args.name}.`,
    );
  }
}
