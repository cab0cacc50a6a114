import { Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { generalSettingsFields } from '../../../cli/views/admin-settings.js';
import { AdminSettingsClient } from '../../../client/admin-settings.js';

export default class AdminSettingsSet extends BerthCommand<typeof AdminSettingsSet> {
  static override summary =
    'Change the general settings of this berth instance (self-hosted edition, site administrators).';
  static override description =
    'With --default-remote-state-access (the default, as in Terraform Enterprise), new workspaces created without global-remote-state let every workspace of their organization read their state; --no-default-remote-state-access lets only approved consumers. Existing workspaces keep theirs.';
  static override examples = [
    '<%= config.bin %> admin settings set --default-remote-state-access',
    '<%= config.bin %> admin settings set --no-default-remote-state-access --json',
  ];
  static override flags = {
    'default-remote-state-access': Flags.boolean({
      description: 'new workspaces share their state with the whole organization unless they say otherwise',
      allowNo: true,
    }),
  };

  async run(): Promise<void> {
    const access = this.flags['default-remote-state-access'];
    if (access === undefined) throw usageError('give a setting to change, e.g. --default-remote-state-access');
    const settings = await new AdminSettingsClient(await this.client()).update({
      'default-remote-state-access': access,
    });
    this.print(settings, () => generalSettingsFields(settings));
  }
}
