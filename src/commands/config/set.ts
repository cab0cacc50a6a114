import { serverUrl } from '../../cli/connection/connection.js';
import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { configPath, readConfig, writeConfig } from '../../cli/connection/config.js';
import { usageError } from '../../cli/common/prompts.js';
import { OUTPUT_FORMATS } from '../../cli/output/output.js';

export const SETTABLE = ['server', 'org', 'output'] as const;

export default class ConfigSet extends BerthCommand<typeof ConfigSet> {
  static override createsProfile = true;
  static override summary = 'Set a default in the berth config file (per profile).';
  static override description = `Keys: server (URL used when --server and the environment name none), org (default organization), output (table, json, yaml or csv; a command's --output or --json overrides it).
Tokens are stored with \`berth login\`, never with this command.`;
  static override examples = [
    '<%= config.bin %> config set org acme',
    '<%= config.bin %> config set server https://berth.example.com --profile prod',
    '<%= config.bin %> config set output json',
  ];
  static override args = {
    key: Args.string({ description: 'setting', required: true, options: [...SETTABLE] }),
    value: Args.string({ description: 'value', required: true }),
  };

  async run(): Promise<void> {
    const { key } = this.args;
    const value = key === 'server' ? serverUrl(this.args.value) : this.args.value;
    if (key === 'output' && !(OUTPUT_FORMATS as readonly string[]).includes(value))
      throw usageError(`output must be one of ${OUTPUT_FORMATS.join(', ')}`);
    if (key === 'server' && !/^https?:\/\/[^\s/]+/.test(value))
      throw usageError('server must be an http:// or https:// URL, or HOST[:PORT]');
    const path = configPath();
    const config = readConfig(path);
    const profile = this.flags.profile;
    config.profiles[profile] = { ...(config.profiles[profile] ?? {}), [key]: value };
    writeConfig(path, config);
    this.print({ profile, key, value }, () => `Set ${key} = ${value} in profile ${profile} (${path}).`);
  }
}
