import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { bashScript, fishScript, zshScript } from '../../cli/command-line/completion.js';

export default class Completion extends BerthCommand<typeof Completion> {
  static override summary = 'Print a shell completion script (bash, zsh or fish).';
  static override description =
    'Completes commands, flags, flag values (including the names of organizations for --org, projects for --project and workspaces for --workspace), and workspace and project arguments: names come from the server or local database, using --org / BERTH_ORG. Names with spaces are quoted for the shell.';
  static override examples = [
    'source <(<%= config.bin %> completion bash)',
    'source <(<%= config.bin %> completion zsh)',
    '<%= config.bin %> completion fish > ~/.config/fish/completions/<%= config.bin %>.fish',
  ];
  static override args = {
    shell: Args.string({ description: 'shell', options: ['bash', 'zsh', 'fish'], required: true }),
  };

  async run(): Promise<void> {
    const bin = this.config.bin;
    const script = { bash: bashScript, zsh: zshScript, fish: fishScript }[this.args.shell as 'bash' | 'zsh' | 'fish'];
    process.stdout.write(script(bin));
  }
}
