import { constants, createGzip } from 'node:zlib';
import { Header } from 'tar';

/**
 * Hostile configuration archives, made as a stream (the inflated bytes are never held whole): an
 * entry is a tar header and its body, padded to the tar block; the whole goes through gzip at its
 * best compression, which turns runs of one byte into about a thousandth of their size.
 */

export interface BombEntry {
  path: string;
  /** The bytes of its body (a tar block multiple or not: padded either way). */
  size: number;
  /** tar's name of its type: `File` (default), `ExtendedHeader` (a pax header), ... */
  type?: 'File' | 'ExtendedHeader' | 'Directory';
  /** The byte its body repeats (default 0). */
  fill?: number;
}

export const files = (count: number, size: number, prefix = 'zeros', fill = 0): BombEntry[] =>
  Array.from({ length: count }, (_, i) => ({ path: `${prefix}-${i}`, size, fill }));

/** The tar header block of `entry`. */
export function headerOf(entry: BombEntry): Buffer {
  const header = new Header({ path: entry.path, mode: 0o644, size: entry.size, type: entry.type ?? 'File' });
  header.encode();
  return header.block!;
}

/**
 * The .tar.gz of `entries`, then the archive's end (two empty blocks), then `trailing` more bytes
 * of zeros (data after the end, which tar does not read).
 */
export async function gzipBomb(entries: BombEntry[], trailing = 0): Promise<Buffer> {
  const gzip = createGzip({ level: constants.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve, reject) => gzip.on('end', resolve).on('error', reject));
  const put = async (bytes: Buffer) => {
    if (!gzip.write(bytes)) await new Promise((resolve) => gzip.once('drain', resolve));
  };
  const run = async (byte: number, length: number) => {
    const block = Buffer.alloc(1024 * 1024, byte);
    for (let left = length; left > 0; left -= block.length) await put(block.subarray(0, Math.min(left, block.length)));
  };
  for (const entry of entries) {
    await put(headerOf(entry));
    await run(entry.fill ?? 0, Math.ceil(entry.size / 512) * 512);
  }
  await put(Buffer.alloc(1024));
  await run(0, trailing);
  gzip.end();
  await ended;
  return Buffer.concat(out);
}
