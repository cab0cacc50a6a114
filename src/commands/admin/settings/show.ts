import { BerthCommand } from '../../../cli/base-command.js';
import { generalSettingsFields } from '../../../cli/views/admin-settings.js';
import { AdminSettingsClient } from '../../../client/admin-settings.js';

export default class AdminSettingsShow extends BerthCommand<typeof AdminSettingsShow> {
  static override summary =
    'Show the general settings of this berth instance (self-hosted edition, site administrators).';
  static override description =
    'Default remote state access: the global-remote-state of a new workspace created without one.';
  static override examples = ['<%= config.bin %> admin settings show', '<%= config.bin %> admin settings show --json'];

  async run(): Promise<void> {
    const settings = await new AdminSettingsClient(await this.client()).show();
    this.print(settings, () => generalSettingsFields(settings));
  }
}
