import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { configPath, readConfig } from '../../cli/connection/config.js';
import { EXIT } from '../../cli/common/exit-codes.js';
import { SETTABLE } from './set.js';

export default class ConfigGet extends BerthCommand<typeof ConfigGet> {
  static override summary = 'Print a default stored in the berth config file (exit 3 when unset).';
  static override examples = ['<%= config.bin %> config get org', '<%= config.bin %> config get server --profile prod'];
  static override args = { key: Args.string({ description: 'setting', required: true, options: [...SETTABLE] }) };

  async run(): Promise<void> {
    const value = readConfig(configPath()).profiles[this.flags.profile]?.[this.args.key as (typeof SETTABLE)[number]];
    if (value === undefined) {
      this.note(`${this.args.key} is not set in profile ${this.flags.profile}`);
      this.exit(EXIT.notFound);
    }
    this.print({ profile: this.flags.profile, key: this.args.key, value }, () => value);
  }
}
