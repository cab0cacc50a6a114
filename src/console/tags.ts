/** `env:prod, team` → key-value tag filters (`key` alone: any value; `:value`: any key). */
export function parseTagged(text: string): { key: string; value: string }[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const i = s.indexOf(':');
      return i === -1 ? { key: s, value: '' } : { key: s.slice(0, i).trim(), value: s.slice(i + 1).trim() };
    })
    .filter((t) => t.key !== '' || t.value !== '');
}

/** The `filter[tagged][i][key]` / `[value]` parameters of tag filters. */
export function taggedParams(tagged: { key: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  tagged.forEach((t, i) => {
    if (t.key !== '') out[`filter[tagged][${i}][key]`] = t.key;
    if (t.value !== '') out[`filter[tagged][${i}][value]`] = t.value;
  });
  return out;
}
