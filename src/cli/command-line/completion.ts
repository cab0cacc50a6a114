import type { Command } from '../oclif.js';

export interface CompletionCommand {
  id: string;
  flags: Record<string, { type: string; options?: readonly string[] | string[]; char?: string }>;
  args: string[];
}

/** What the shell should offer after `words` (the last one is the word being completed). */
export interface CompletionRequest {
  /** Static candidates (commands, topics, flags, flag options). */
  candidates: string[];
  /** When an argument of this kind is being completed, the caller may add names (workspaces, projects). */
  argument?: string;
}

export function commandsFromConfig(commands: Command.Loadable[]): CompletionCommand[] {
  return commands
    .filter((c) => !c.hidden)
    .map((c) => ({
      id: c.id,
      flags: Object.fromEntries(
        Object.entries(c.flags ?? {}).map(([name, f]) => [
          name,
          { type: f.type, options: f.type === 'option' ? f.options : undefined, char: f.char },
        ]),
      ),
      args: Object.keys(c.args ?? {}),
    }));
}

/**
 * Completion for `words` typed after `berth`: the next word of a command id, a flag, a flag's
 * options, or (signalled through `argument`) the name of a workspace or project.
 */
export function complete(commands: CompletionCommand[], words: string[]): CompletionRequest {
  const current = words[words.length - 1] ?? '';
  const before = words.slice(0, -1);
  // The longest run of leading words that names a command.
  let command: CompletionCommand | undefined;
  let used = 0;
  for (let n = before.length; n > 0; n--) {
    command = commands.find((c) => c.id === before.slice(0, n).join(':'));
    if (command) {
      used = n;
      break;
    }
  }
  const starts = (s: string) => s.startsWith(current);
  if (!command) {
    const prefix = before.join(':');
    const next = new Set<string>();
    for (const c of commands) {
      const parts = c.id.split(':');
      if (prefix !== '' && !c.id.startsWith(`${prefix}:`)) continue;
      const word = parts[before.length];
      if (word && (prefix === '' || parts.slice(0, before.length).join(':') === prefix)) next.add(word);
    }
    return { candidates: [...next].filter(starts).sort() };
  }
  const previous = before[before.length - 1] ?? '';
  if (previous.startsWith('-') && before.length > used) {
    const name = flagName(command, previous);
    const flag = name === undefined ? undefined : command.flags[name];
    if (flag && flag.type === 'option') {
      if (flag.options) return { candidates: [...flag.options].filter(starts) };
      // Values from the API: names of organizations, projects and workspaces.
      if (name === 'org' || name === 'project' || name === 'workspace') return { candidates: [], argument: name };
      return { candidates: [] };
    }
  }
  if (current.startsWith('-')) {
    const names = Object.entries(command.flags).flatMap(([name, f]) =>
      f.type === 'boolean' && name !== 'json' ? [`--${name}`, `--no-${name}`] : [`--${name}`],
    );
    return {
      candidates: names
        .filter((n) => !n.startsWith('--no-') || command.flags[n.slice(5)])
        .filter(starts)
        .sort(),
    };
  }
  // Positional arguments typed so far (skipping flags and their values).
  let position = 0;
  for (let i = used; i < before.length; i++) {
    const w = before[i];
    if (w.startsWith('-')) {
      const name = flagName(command, w);
      if (name !== undefined && command.flags[name]?.type === 'option' && !w.includes('=')) i++;
      continue;
    }
    position++;
  }
  const argName = command.args[Math.min(position, command.args.length - 1)];
  return { candidates: [], argument: argName };
}

/** `--project` or `-p` to the flag's name. */
function flagName(command: CompletionCommand, word: string): string | undefined {
  if (word.startsWith('--')) return word.slice(2).split('=')[0];
  return Object.entries(command.flags).find(([, f]) => f.char === word.slice(1))?.[0];
}

/** The word being completed as the shell hands it over: without an opening quote or backslash escapes. */
export function unquote(word: string): string {
  return word.replace(/^["']/, '').replace(/\\(.)/g, '$1');
}

export function bashScript(bin: string): string {
  return `# ${bin} completion for bash: add to ~/.bashrc
#   source <(${bin} completion bash)
_${bin}_complete() {
  local c
  COMPREPLY=()
  while IFS= read -r c; do
    # Quoted for the shell: a name with spaces is inserted as my\\ name.
    COMPREPLY+=("$(printf '%q' "$c")")
  done < <(${bin} completion candidates -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}
complete -o default -F _${bin}_complete ${bin}
`;
}

export function fishScript(bin: string): string {
  return `# ${bin} completion for fish: save as ~/.config/fish/completions/${bin}.fish
#   ${bin} completion fish > ~/.config/fish/completions/${bin}.fish
function __${bin}_complete
    set -l words (commandline -opc)[2..-1]
    ${bin} completion candidates -- $words (commandline -ct) 2>/dev/null
end
complete -c ${bin} -f -a '(__${bin}_complete)'
`;
}

export function zshScript(bin: string): string {
  return `#compdef ${bin}
# ${bin} completion for zsh: add to ~/.zshrc
#   source <(${bin} completion zsh)
_${bin}() {
  local -a candidates
  candidates=("\${(@f)$(${bin} completion candidates -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _${bin} ${bin}
`;
}
