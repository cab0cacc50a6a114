/** What a sensitive value becomes in a run's log. */
export const CONCEALED = '(sensitive value)';

/**
 * Replaces sensitive values in a stream of log chunks, also when a value arrives split across
 * chunks: a chunk's last bytes (fewer than the longest value) wait for the next chunk before they
 * are given out. Values are matched byte for byte as terraform prints them, and as it quotes them
 * (escaped); each line of a multi-line value is matched too (terraform prints such values one
 * line at a time).
 */
export class LogScrubber {
  private readonly secrets: Buffer[];
  private readonly longest: number;
  private carry = Buffer.alloc(0);

  constructor(values: readonly string[]) {
    const all = new Set<string>();
    for (const v of values) {
      if (v === '') continue;
      all.add(v);
      // As terraform quotes it in a plan or an error (a variable the configuration does not mark
      // sensitive): `"` and `\` escaped, control characters as `\n`, `\t`, `\u…`.
      all.add(JSON.stringify(v).slice(1, -1));
      if (/[\r\n]/.test(v)) for (const line of v.split(/\r?\n/)) if (line.trim().length >= 4) all.add(line.trim());
    }
    // Longest first: at one position the longest value wins.
    this.secrets = [...all].map((s) => Buffer.from(s)).sort((a, b) => b.length - a.length);
    this.longest = this.secrets[0]?.length ?? 0;
  }

  get active(): boolean {
    return this.longest > 0;
  }

  /** What of `chunk` (after what was held back) can be given out now, values replaced. */
  push(chunk: Buffer): Buffer {
    if (!this.active) return chunk;
    return this.scrub(this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk, false);
  }

  /** Everything held back, values replaced: the stream ended. */
  end(): Buffer {
    return this.active ? this.scrub(this.carry, true) : Buffer.alloc(0);
  }

  private scrub(data: Buffer, final: boolean): Buffer {
    // A value starting before `safe` lies whole in `data`; one starting later may go on in the next chunk.
    const safe = final ? data.length : Math.max(0, data.length - (this.longest - 1));
    const out: Buffer[] = [];
    let pos = 0;
    for (;;) {
      const match = this.earliest(data, pos);
      if (!match || match.at >= safe) break;
      out.push(data.subarray(pos, match.at), Buffer.from(CONCEALED));
      pos = match.at + match.length;
    }
    const keep = Math.max(pos, safe);
    out.push(data.subarray(pos, keep));
    this.carry = Buffer.from(data.subarray(keep));
    return Buffer.concat(out);
  }

  private earliest(data: Buffer, from: number): { at: number; length: number } | null {
    let best: { at: number; length: number } | null = null;
    for (const s of this.secrets) {
      const at = data.indexOf(s, from);
      if (at !== -1 && (!best || at < best.at)) best = { at, length: s.length };
    }
    return best;
  }
}
