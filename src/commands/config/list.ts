import { BerthCommand } from '../../cli/base-command.js';
import { configPath, readConfig } from '../../cli/connection/config.js';
import { renderFields } from '../../cli/output/output.js';

export default class ConfigList extends BerthCommand<typeof ConfigList> {
  static override summary = 'Show the stored profiles and what this command line resolves to.';
  static override description =
    'The "effective" part shows the profile, server, organization, token (masked) and output format that commands would use now, and where each came from, in parentheses: a flag, an environment variable (BERTH_*, TFE_*, TF_TOKEN_*), the Terraform credentials file, a profile of the config file, berth login, or the default. With --json, the same under "sources".';
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
      output: this.outputFormat,
      mode: server ? 'remote' : 'local',
    };
    const sources = { ...this.sources, organization: this.sources.org };
    const from = (key: keyof typeof sources, value: string | null) => `${value ?? '-'}  (${sources[key]})`;
    const logins = Object.keys(config.credentials);
    const { org: _org, ...jsonSources } = sources;
    this.print({ path, profiles: config.profiles, logins, effective, sources: jsonSources }, () =>
      [
        `Config file: ${path}`,
        '',
        renderFields([
          ['Profile', from('profile', effective.profile)],
          ['Mode', effective.mode],
          ['Server', from('server', effective.server)],
          ['Organization', from('organization', effective.organization)],
          ['Token', from('token', effective.token)],
          ['Output', from('output', effective.output)],
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
