import { BerthCommand } from '../../cli/base-command.js';
import { commandsFromConfig, complete } from '../../cli/completion.js';

export default class CompletionCandidates extends BerthCommand<typeof CompletionCandidates> {
  static override hidden = true;
  static override summary = 'Print completion candidates for the words after `berth` (used by the completion scripts).';
  static override strict = false;

  async run(): Promise<void> {
    const words = this.argv.slice(this.argv.indexOf('--') + 1);
    const { candidates, argument } = complete(
      commandsFromConfig(this.config.commands),
      words.length > 0 ? words : [''],
    );
    const out = [...candidates];
    const current = words[words.length - 1] ?? '';
    if ((argument === 'workspace' || argument === 'project') && this.flags.org) {
      // Names where it is cheap: the first page (100) of names starting with what is typed.
      try {
        const client = await this.client();
        const path = `/organizations/${encodeURIComponent(this.flags.org)}/${argument}s`;
        const query = argument === 'workspace' ? { 'search[wildcard-name]': `${current}*` } : { q: current };
        const { data } = await client.list(path, query, { pageSize: 100 });
        out.push(...data.map((r) => String(r.attributes.name)).filter((n) => n.startsWith(current)));
      } catch {
        // Completion never fails loudly.
      }
    }
    if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
  }
}
