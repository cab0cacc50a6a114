import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Unpack } from 'tar';
import { MAX_CONFIGURATION_ENTRIES, MAX_CONFIGURATION_UNPACKED_BYTES } from '../domain/common/limits.js';

/** What a configuration may unpack to: bytes of its files, and files and folders. */
export interface ConfigurationBounds {
  bytes: number;
  entries: number;
}

export const DEFAULT_CONFIGURATION_BOUNDS: ConfigurationBounds = {
  bytes: MAX_CONFIGURATION_UNPACKED_BYTES,
  entries: MAX_CONFIGURATION_ENTRIES,
};

/** Compressed bytes handed to the inflater at once. */
const SLICE_BYTES = 64 * 1024;
/** Inflated bytes handed to tar at once: the inflater's output chunk. */
export const CHUNK_BYTES = 64 * 1024;
/**
 * What the tar stream may hold for each entry besides the file's own bytes (its header, a pax
 * header, the padding of its last block): the inflated stream may be at most `bytes` plus this
 * for each entry allowed, whatever its headers say (ignored and meta entries, data after the end).
 */
export const ENTRY_OVERHEAD_BYTES = 2048;

/** Watches an extraction (tests): each chunk of inflated bytes as it is handed to tar. */
export interface ExtractionProbe {
  chunk?(bytes: number): void;
}

/**
 * Unpacks the configuration archive (tar.gz) into `work`, strictly (node-tar refuses entries, and
 * links, that would land outside it), stopping as soon as it unpacks past its bounds; answers why it
 * stopped (null: unpacked), or throws why it cannot be extracted. Memory stays bounded whatever the
 * archive: the archive is inflated in slices, and tar gets a chunk at a time, the next only once it
 * has written the last (its backpressure). Whether it ends, stops or fails, it answers only once
 * every file tar began writing is closed, so that the folder can be removed at once.
 */
export async function extractConfiguration(
  archive: Buffer,
  work: string,
  max: ConfigurationBounds = DEFAULT_CONFIGURATION_BOUNDS,
  probe: ExtractionProbe = {},
): Promise<string | null> {
  const tooLarge = `The configuration unpacks to more than ${max.bytes} bytes: berth unpacks no more`;
  const inflatedMax = max.bytes + max.entries * ENTRY_OVERHEAD_BYTES;
  let over: string | null = null;
  let failure: Error | null = null;
  let sawEnd = false;
  let bytes = 0;
  let entries = 0;
  // The headers' sizes first: a file that says it is too large stops the extraction before its bytes
  // are inflated.
  const filter = (_path: string, entry: { size?: number }) => {
    entries += 1;
    bytes += entry.size ?? 0;
    if (over === null && (bytes > max.bytes || entries > max.entries))
      over =
        entries > max.entries
          ? `The configuration has more than ${max.entries} files and folders: berth unpacks no more`
          : tooLarge;
    return over === null;
  };
  // brotli, zstd: false, so that tar inflates nothing itself (gzip inside is refused below).
  const unpack = new Unpack({ cwd: work, strict: true, filter, brotli: false, zstd: false });
  const closed = untilClosed(unpack);
  unpack.on('error', (err: Error) => {
    failure ??= err;
  });
  // Past the archive's end (two empty blocks) tar buffers whatever comes: it gets nothing more.
  unpack.on('eof', () => {
    sawEnd = true;
  });
  const stopped = () => over !== null || failure !== null || sawEnd;
  let inflated = 0;
  try {
    await pipeline(
      Readable.from(slices(archive)),
      createGunzip({ chunkSize: CHUNK_BYTES }),
      async (chunks: AsyncIterable<Buffer>) => {
        for await (const chunk of chunks) {
          if (inflated === 0 && chunk[0] === 0x1f && chunk[1] === 0x8b)
            failure ??= new Error('the archive in the gzip stream is gzipped again: berth unpacks a .tar.gz');
          inflated += chunk.length;
          if (inflated > inflatedMax) over ??= tooLarge;
          if (stopped()) return;
          probe.chunk?.(chunk.length);
          if (!unpack.write(chunk)) await drained(unpack);
          if (stopped()) return;
        }
      },
    );
  } catch (err) {
    // Not gzip data, or cut short; stopping early closes the inflater before its end, which is no error.
    if (!stopped()) failure ??= err as Error;
  } finally {
    unpack.end();
    await closed;
  }
  if (over !== null) return over;
  if (failure !== null) throw failure;
  return null;
}

/** The archive as views of SLICE_BYTES (no copies). */
function* slices(archive: Buffer): Generator<Buffer> {
  for (let at = 0; at < archive.length; at += SLICE_BYTES) yield archive.subarray(at, at + SLICE_BYTES);
}

/** Resolves once tar takes more: drained, or failed, at the archive's end, or closed. */
function drained(unpack: Unpack): Promise<void> {
  const events = ['drain', 'error', 'eof', 'close'] as const;
  return new Promise((resolve) => {
    const go = () => {
      for (const e of events) unpack.off(e, go);
      resolve();
    };
    for (const e of events) unpack.on(e, go);
  });
}

/**
 * Resolves once tar has closed every file it began (its `close`, which comes after the end; an
 * entry whose write failed is resumed by tar itself). Without its folder (a CwdError), tar writes
 * nothing and never closes.
 */
function untilClosed(unpack: Unpack): Promise<void> {
  return new Promise((resolve) => {
    unpack.on('close', resolve);
    unpack.on('error', (err: Error) => {
      if (err.name === 'CwdError') resolve();
    });
  });
}
