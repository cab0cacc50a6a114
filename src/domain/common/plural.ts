/**
 * A count with its noun in the right number: `plural(1, 'workspace')` is "1 workspace",
 * `plural(2, 'workspace')` "2 workspaces"; nouns (or phrases) whose plural is not an added "s"
 * pass it: `plural(n, 'workspace is', 'workspaces are')`. Every count message of the CLI goes
 * through it, so none says "1 workspaces" or "workspace(s)".
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
