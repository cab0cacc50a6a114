import { BerthCommand } from '../../cli/base-command.js';
import { configPath, readConfig } from '../../cli/config.js';
import { renderFields } from '../../cli/output.js';

export default class ConfigList extends BerthCommand<typeof ConfigList> {
  static override summary = 'Show the stored profiles and what this command line resolves to.';
  static override description =
    'The "effective" part shows the server, organization and token (masked) that commands would use now, and where each came from (flag, environment, Terraform credentials file, profile, berth login).';
  static override examples = ['<%= config.bin %> config list', '<%= config.bin %> config list --profile prod --json'];

  async run(): Promise<void> {
    const path = configPath();
    const config = readConfig(path);
    const { server, token, org } = this.flags;
    const effective = {
      profile: this.flags.profile,
      server: server ?? null,
      organization: org ?? null,
      token: token ? `${token.slice(0, 6)}…` : null,
      mode: server ? 'remote' : 'local',
    };
    const logins = Object.keys(config.credentials);
    this.print({ path, profiles: config.profiles, logins, effective }, () =>
      [
        `Config file: ${path}`,
        '',
        renderFields([
          ['Profile', effective.profile],
          ['Mode', effective.mode],
          ['Server', effective.server],
          ['Organization', effective.organization],
          ['Token', effective.token],
          ['Logged in to', logins],
        ]),
        '',
        ...Object.entries(config.profiles).map(
          ([name, p]) =>
            `[${name}] ${
              Object.entries(p)
                .filter(([k]) => k !== 'token')
                .map(([k, v]) => `${k}=${v}`)
                .join(' ') || '(empty)'
            }`,
        ),
      ].join('\n'),
    );
  }
}
