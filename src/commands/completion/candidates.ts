import { BerthCommand } from '../../cli/base-command.js';
import { commandsFromConfig, complete, unquote } from '../../cli/command-line/completion.js';
import { expandAliases } from '../../cli/command-line/dispatch.js';

export default class CompletionCandidates extends BerthCommand<typeof CompletionCandidates> {
  static override hidden = true;
  static override summary = 'Print completion candidates for the words after `berth` (used by the completion scripts).';
  static override strict = false;

  async run(): Promise<void> {
    const typed = this.argv.slice(this.argv.indexOf('--') + 1).map(unquote);
    // Aliases (`ws lock`) complete like the full names; the word being completed stays as typed.
    const words = [
      ...expandAliases(
        typed.slice(0, -1),
        this.config.commands.map((c) => c.id),
      ),
      ...typed.slice(-1),
    ];
    const { candidates, argument } = complete(
      commandsFromConfig(this.config.commands),
      words.length > 0 ? words : [''],
    );
    const out = [...candidates];
    const current = words[words.length - 1] ?? '';
    // The organization typed on the line being completed wins over BERTH_ORG and the profile.
    const orgAt = words.findIndex((w) => w === '--org' || w === '-o');
    const org = orgAt >= 0 && orgAt + 1 < words.length - 1 ? words[orgAt + 1] : this.flags.org;
    if (argument === 'org' || ((argument === 'workspace' || argument === 'project') && org)) {
      // Names where it is cheap: the first page (100) of names starting with what is typed.
      try {
        const client = await this.client();
        const path = argument === 'org' ? '/organizations' : `/organizations/${encodeURIComponent(org!)}/${argument}s`;
        const query =
          argument === 'workspace'
            ? { 'search[wildcard-name]': `${current}*` }
            : argument === 'project'
              ? { q: current }
              : {};
        const { data } = await client.list(path, query, { pageSize: 100 });
        out.push(...data.map((r) => String(r.attributes.name)).filter((n) => n.startsWith(current)));
      } catch {
        // Completion never fails loudly.
      }
    }
    if (out.length > 0) process.stdout.write(`${out.join('\n')}\n`);
  }
}
