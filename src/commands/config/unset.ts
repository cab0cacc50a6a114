import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { configPath, readConfig, writeConfig } from '../../cli/config.js';
import { SETTABLE } from './set.js';

export default class ConfigUnset extends BerthCommand<typeof ConfigUnset> {
  static override summary = 'Remove a default from the berth config file.';
  static override examples = ['<%= config.bin %> config unset org'];
  static override args = { key: Args.string({ description: 'setting', required: true, options: [...SETTABLE] }) };

  async run(): Promise<void> {
    const path = configPath();
    const config = readConfig(path);
    const profile = config.profiles[this.flags.profile];
    if (profile) {
      delete profile[this.args.key as (typeof SETTABLE)[number]];
      writeConfig(path, config);
    }
    this.print(
      { profile: this.flags.profile, key: this.args.key, value: null },
      () => `Unset ${this.args.key} in profile ${this.flags.profile}.`,
    );
  }
}
