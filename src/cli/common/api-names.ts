/**
 * The API's names for what a person typed (`filter[actor]`, `/data/0/attributes/key`) translated
 * into the CLI's words (`--actor`, `tag #1 key`), for the error renderer (`exit-codes.ts`).
 */

/** Query parameters of the list endpoints, and the flag of the list commands that sets each. */
const PARAMETER_FLAGS: [RegExp, string][] = [
  [/filter\[actor\]/g, '--actor'],
  [/filter\[since\]/g, '--since'],
  [/filter\[workspace\]/g, '--workspace'],
  [/filter\[current-run\]\[status\]/g, '--run-status'],
  [/filter\[project\]\[id\]/g, '--project'],
  [/filter\[tagged\]\[\d+\]\[(key|value)\]/g, '--tag'],
  [/filter\[permissions\]\[[\w-]+\]/g, '--can'],
  [/filter\[names\]/g, '--names'],
  [/filter\[status\]/g, '--status'],
  [/filter\[allowed_workspaces\]\[name\]/g, '--allowed-workspace'],
  [/search\[wildcard-name\]/g, '--wildcard'],
  [/search\[exclude-tags\]/g, '--exclude-tags'],
  [/search\[tags\]/g, '--tags'],
  [/search\[name\]/g, '--search'],
  [/page\[number\]/g, '--page'],
  [/page\[size\]/g, '--page-size'],
];

/** `detail` with the API's parameter names replaced by the CLI's flags. */
export function withFlagNames(detail: string): string {
  return PARAMETER_FLAGS.reduce((text, [pattern, flag]) => text.replace(pattern, flag), detail);
}

/** Where a JSON pointer of a request body points, in the words of the command line ('' for the whole body). */
export function pointerLabel(pointer: string): string {
  let m = /^\/data\/relationships\/tag-bindings\/data\/(\d+)\/attributes\/([\w-]+)$/.exec(pointer);
  if (m) return `tag #${Number(m[1]) + 1} ${m[2]}`;
  m = /^\/data\/(\d+)\/attributes\/([\w-]+)$/.exec(pointer);
  if (m) return `#${Number(m[1]) + 1} ${m[2]}`;
  m = /^\/data\/(\d+)(\/id)?$/.exec(pointer);
  if (m) return `#${Number(m[1]) + 1}`;
  m = /^\/data\/relationships\/([\w-]+)(\/data)?(\/id)?$/.exec(pointer);
  if (m) return m[1];
  m = /^\/data\/attributes\/(.+)$/.exec(pointer);
  if (m) return m[1].replace(/\//g, '.');
  return pointer.replace(/^\/data\/?/, '');
}
