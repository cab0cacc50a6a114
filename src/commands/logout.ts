import { Args } from '../cli/oclif.js';
import { BerthCommand } from '../cli/base-command.js';
import { configPath, hostOf, readConfig, writeConfig } from '../cli/connection/config.js';
import { resolveConnection, serverUrl } from '../cli/connection/connection.js';
import { usageError } from '../cli/common/prompts.js';

export default class Logout extends BerthCommand<typeof Logout> {
  static override summary = "Remove the token stored for a server from berth's config file (the reverse of login).";
  static override description = `Removes the token \`berth login\` stored for the server's host, and a token kept in the profile (\`--profile\`) for that server. The profile keeps its server (\`berth config unset server\` goes back to local mode). Tokens from elsewhere (--token, BERTH_TOKEN, TFE_TOKEN, TF_TOKEN_<host>, Terraform's credentials file) are not berth's to remove: logout says when one of them still applies. Nothing is sent to the server; the token itself stays valid until revoked (\`berth token revoke\`).`;
  static override examples = [
    '<%= config.bin %> logout',
    '<%= config.bin %> logout https://berth.example.com',
    '<%= config.bin %> logout --profile prod',
  ];
  static override args = { server: Args.string({ description: 'server URL (default: the resolved --server)' }) };

  async run(): Promise<void> {
    const given = this.args.server ?? this.flags.server;
    if (!given) throw usageError('say which server to log out of: berth logout URL (no server is set)');
    const server = serverUrl(given);
    const host = hostOf(server);
    const path = configPath();
    const config = readConfig(path);
    const removed: string[] = [];
    if (config.credentials[host]) {
      delete config.credentials[host];
      removed.push(`the token stored by berth login for ${host}`);
    }
    const profile = config.profiles[this.flags.profile];
    if (profile?.token && (!profile.server || hostOf(serverUrl(profile.server)) === host)) {
      delete profile.token;
      removed.push(`the token of profile ${this.flags.profile}`);
    }
    if (removed.length > 0) writeConfig(path, config);
    // What would still authenticate to this server: a token berth does not own.
    const still = resolveConnection({ server }, process.env, config, this.flags.profile).sources.token;
    this.print(
      { server, host, profile: this.flags.profile, removed: removed.length > 0, 'token-still-from': still ?? null },
      () =>
        [
          removed.length > 0
            ? `Logged out of ${host}: removed ${removed.join(' and ')} from ${path}.`
            : `No token stored for ${host} in ${path}; nothing to remove.`,
          ...(still
            ? [`A token for ${host} still comes from ${still.replace(/^TF/, 'environment TF')}: remove it there.`]
            : []),
        ].join('\n'),
    );
  }
}
