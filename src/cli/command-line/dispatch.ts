/**
 * What berth does with its command line before oclif parses it: `berth help [COMMAND...]`,
 * command aliases (`ws ls`), and "did you mean" for a mistyped command. Pure: it gets the
 * command ids (`workspace:list`, ...) and answers the argv to run, or the error to print.
 */

/** Short names accepted for a command word, at any level; the first that names a command wins. */
const ALIASES: Record<string, string[]> = {
  ws: ['workspace'],
  proj: ['project'],
  ls: ['list'],
  rm: ['delete', 'remove', 'unset'],
  // `var unset` is the verb of variables; everything else says delete (issue 46).
  delete: ['unset', 'remove'],
  new: ['create'],
  get: ['show'],
};

export type Dispatch = { argv: string[] } | { error: string };

/**
 * Edit distance where swapping two neighbouring letters counts as one edit (optimal string
 * alignment), so that `lsit` is one typo away from `list`, as people make them.
 */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

/** The words that may follow `words` (the next level of the command tree). */
function nextWords(ids: string[], words: string[]): string[] {
  const prefix = words.length === 0 ? '' : `${words.join(':')}:`;
  const next = new Set<string>();
  for (const id of ids) if (id.startsWith(prefix)) next.add(id.slice(prefix.length).split(':')[0]);
  return [...next].sort();
}

/** Close matches of a mistyped word: a small edit distance, or a word it begins. */
export function suggestions(word: string, options: string[]): string[] {
  const expanded = ALIASES[word] ?? [];
  const limit = Math.max(1, Math.floor(word.length / 3));
  return options.filter(
    (o) => expanded.includes(o) || editDistance(word, o) <= limit || (word.length >= 2 && o.startsWith(word)),
  );
}

/**
 * The leading command words of `words` with their aliases spelled out (`ws lock` to `workspace
 * lock`), the rest as typed: what shell completion sees, so that it completes after an alias
 * exactly as after the full name.
 */
export function expandAliases(words: string[], ids: string[]): string[] {
  const resolved: string[] = [];
  let i = 0;
  for (; i < words.length && !words[i].startsWith('-'); i++) {
    const hit = [words[i], ...(ALIASES[words[i]] ?? [])].find((w) => nextWords(ids, resolved).includes(w));
    if (!hit) break;
    resolved.push(hit);
  }
  return [...resolved, ...words.slice(i)];
}

/** What dispatch knows of the commands beyond their ids (both optional, for the pure tests). */
export interface DispatchOptions {
  bin?: string;
  /** The global flags (every command has them): names, whether they take a value, short names. */
  globalFlags?: { name: string; char?: string; takesValue: boolean }[];
  /** Whether a command takes positional arguments (a command that takes none refuses one). */
  takesArguments?: (id: string) => boolean;
}

/**
 * Global flags typed before the command (`berth --profile ops ws ls`): taken off the front, to be
 * put after the command words, where oclif reads them. Answers the flags, the index of the first
 * word after them, or the flag it does not know.
 */
function leadingGlobalFlags(
  argv: string[],
  flags: NonNullable<DispatchOptions['globalFlags']>,
): { taken: string[]; next: number } | { unknown: string } {
  const taken: string[] = [];
  let i = 0;
  while (i < argv.length && argv[i].startsWith('-') && argv[i] !== '--') {
    const word = argv[i];
    const long = word.startsWith('--') ? word.slice(2).split('=')[0] : undefined;
    const flag = flags.find((f) =>
      long !== undefined ? f.name === long || (!f.takesValue && `no-${f.name}` === long) : f.char === word[1],
    );
    if (!flag) return { unknown: word };
    // The value is the next word, unless given in the same one (--org=acme, -oacme).
    const inline = long !== undefined ? word.includes('=') : word.length > 2;
    const width = flag.takesValue && !inline ? 2 : 1;
    if (i + width > argv.length) return { taken: [...taken, ...argv.slice(i)], next: argv.length };
    taken.push(...argv.slice(i, i + width));
    i += width;
  }
  return { taken, next: i };
}

/**
 * Resolves the leading command words of `argv` (with aliases); everything after the command is
 * left as typed. `help WORDS...` becomes `WORDS... --help`. Global flags typed before the command
 * move after it; a word after a command that takes no arguments is refused here, since oclif
 * would read it as part of the command's name.
 */
export function dispatch(argv: string[], ids: string[], options: DispatchOptions | string = {}): Dispatch {
  const { bin = 'berth', globalFlags = [], takesArguments } = typeof options === 'string' ? { bin: options } : options;
  // --help, -h and --version first are oclif's; so is an empty command line.
  const first = argv[0];
  let globals: string[] = [];
  if (first?.startsWith('-') && !['--help', '-h', '--version', '--'].includes(first) && globalFlags.length > 0) {
    const leading = leadingGlobalFlags(argv, globalFlags);
    if ('unknown' in leading)
      return {
        error: `unknown flag ${leading.unknown} before the command; only global flags (${globalFlags.map((f) => `--${f.name}`).join(', ')}) may come before it. Run "${bin} help" for the commands.`,
      };
    globals = leading.taken;
    argv = argv.slice(leading.next);
    if (argv.length === 0 || argv[0].startsWith('-'))
      return { error: `a command is missing after ${globals.join(' ')}. Run "${bin} help" for the commands.` };
  }
  const helpAsked = argv[0] === 'help' && !ids.includes('help');
  const rest = helpAsked ? argv.slice(1) : argv;
  const words: string[] = [];
  let i = 0;
  for (; i < rest.length && !rest[i].startsWith('-'); i++) {
    const word = rest[i];
    const hit = [word, ...(ALIASES[word] ?? [])].find((w) => nextWords(ids, words).includes(w));
    if (!hit) break;
    words.push(hit);
  }
  const id = words.join(':');
  const complete = ids.includes(id);
  const next = rest[i];
  if (!complete && next !== undefined && !next.startsWith('-')) {
    const typed = [...words, next].join(' ');
    const close = suggestions(next, nextWords(ids, words)).map((w) => [...words, w].join(' '));
    const hint = close.length > 0 ? ` Did you mean ${close.map((c) => `"${bin} ${c}"`).join(' or ')}?` : '';
    return {
      error: `"${typed}" is not a ${bin} command.${hint} Run "${[bin, 'help', ...words].join(' ')}" for the list.`,
    };
  }
  if (helpAsked) return { argv: [...words, '--help'] };
  if (complete && next !== undefined && !next.startsWith('-') && takesArguments && !takesArguments(id))
    return { error: unexpectedArgumentMessage(next, `${bin} ${words.join(' ')}`) };
  return { argv: [...words, ...globals, ...rest.slice(i)] };
}

/** A word given to a command that takes no arguments (the same words as the command's own check). */
export function unexpectedArgumentMessage(word: string, command: string): string {
  return `unexpected argument ${JSON.stringify(word)}: ${command} takes no arguments. See \`${command} --help\`.`;
}
