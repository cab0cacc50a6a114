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
  rm: ['delete', 'remove'],
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

/**
 * Resolves the leading command words of `argv` (with aliases); everything after the command is
 * left as typed. `help WORDS...` becomes `WORDS... --help`.
 */
export function dispatch(argv: string[], ids: string[], bin = 'berth'): Dispatch {
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
  const resolved = [...words, ...rest.slice(i)];
  if (helpAsked) return { argv: [...words, '--help'] };
  return { argv: resolved };
}
