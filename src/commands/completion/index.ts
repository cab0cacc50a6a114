import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { bashScript, zshScript } from '../../cli/completion.js';

export default class Completion extends BerthCommand<typeof Completion> {
  static override summary = 'Print a shell completion script (bash or zsh).';
  static override description =
    'Completes commands, flags, flag values, and workspace and project names (those from the server or local database, using --org / BERTH_ORG).';
  static override examples = [
    'source <(<%= config.bin %> completion bash)',
    'source <(<%= config.bin %> completion zsh)',
  ];
  static override args = { shell: Args.string({ description: 'shell', options: ['bash', 'zsh'], required: true }) };

  async run(): Promise<void> {
    const bin = this.config.bin;
    process.stdout.write(this.args.shell === 'bash' ? bashScript(bin) : zshScript(bin));
  }
}
