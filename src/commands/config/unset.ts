import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { configPath, hostOf, readConfig, writeConfig } from '../../cli/connection/config.js';
import { serverUrl } from '../../cli/connection/connection.js';
import { SETTABLE } from './set.js';

export default class ConfigUnset extends BerthCommand<typeof ConfigUnset> {
  static override summary = 'Remove a default from the berth config file.';
  static override description =
    "Keys: server, org, output, and token: the token this profile uses for its server, kept by `berth login` (per host) or in the profile; the same as `berth logout` for the profile's server.";
  static override examples = [
    '<%= config.bin %> config unset org',
    '<%= config.bin %> config unset token --profile prod',
  ];
  static override args = {
    key: Args.string({ description: 'setting', required: true, options: [...SETTABLE, 'token'] }),
  };

  async run(): Promise<void> {
    const path = configPath();
    const config = readConfig(path);
    const profile = config.profiles[this.flags.profile];
    if (profile) delete profile[this.args.key as (typeof SETTABLE)[number] | 'token'];
    // The token login stored for the profile's server is the profile's token too.
    const server = profile?.server ?? this.flags.server;
    if (this.args.key === 'token' && server) delete config.credentials[hostOf(serverUrl(server))];
    if (profile || this.args.key === 'token') writeConfig(path, config);
    this.print(
      { profile: this.flags.profile, key: this.args.key, value: null },
      () => `Unset ${this.args.key} in profile ${this.flags.profile}.`,
    );
  }
}
