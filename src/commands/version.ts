import { Command, Flags } from '../cli/oclif.js';

export default class Version extends Command {
  static override summary = 'Print the version of berth (same as --version).';
  static override examples = ['<%= config.bin %> version', '<%= config.bin %> version --json'];
  static override flags = {
    json: Flags.boolean({ char: 'j', description: 'print machine-readable JSON on stdout', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Version);
    const { version, platform, arch } = this.config;
    process.stdout.write(
      flags.json
        ? `${JSON.stringify({ version, platform, arch, node: process.versions.node }, null, 2)}\n`
        : `${this.config.userAgent}\n`,
    );
  }
}
