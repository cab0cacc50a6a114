import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract } from 'tar';
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

/**
 * Unpacks the configuration archive into `work`, strictly (node-tar refuses entries, and links,
 * that would land outside it), stopping as soon as it unpacks past its bounds; answers why it
 * stopped (null: unpacked).
 */
export async function extractConfiguration(
  archive: Buffer,
  work: string,
  max: ConfigurationBounds = DEFAULT_CONFIGURATION_BOUNDS,
): Promise<string | null> {
  const stop = new AbortController();
  let bytes = 0;
  let entries = 0;
  let over: string | null = null;
  const filter = (_path: string, entry: { size?: number }) => {
    entries += 1;
    bytes += entry.size ?? 0;
    if (over === null && (bytes > max.bytes || entries > max.entries)) {
      over =
        entries > max.entries
          ? `The configuration has more than ${max.entries} files and folders: berth unpacks no more`
          : `The configuration unpacks to more than ${max.bytes} bytes: berth unpacks no more`;
      stop.abort();
    }
    return over === null;
  };
  try {
    await pipeline(Readable.from([archive]), extract({ cwd: work, strict: true, filter }), { signal: stop.signal });
  } catch (err) {
    if (over === null) throw err;
  }
  return over;
}
