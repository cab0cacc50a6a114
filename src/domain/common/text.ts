/**
 * The length of a text in characters (Unicode code points), as length limits count it: an emoji
 * is one character, where JavaScript's `length` counts two UTF-16 units.
 */
export function charLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) {
      n--;
      i++;
    }
  }
  return n;
}
