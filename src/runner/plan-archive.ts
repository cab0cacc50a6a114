import { inflateRawSync } from 'node:zlib';

/**
 * Reading one file of a saved plan: terraform writes `plan -out` as a zip archive (the plan, the
 * states, a snapshot of the configuration, and the dependency lock file the plan was made with).
 * Only what the executor needs: find an entry by name in the central directory and answer its
 * bytes (stored or deflated), or null when the archive has no such entry or is not one berth reads.
 */

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** What an entry may inflate to (a dependency lock file is a few KiB): past it, the entry is not read. */
export const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

/** The bytes of `name` in the zip archive `zip`, or null (also when it would inflate past `maxBytes`). */
export function fileInZip(zip: Buffer, name: string, maxBytes = MAX_ENTRY_BYTES): Buffer | null {
  // The end-of-directory record is in the last 22 + 65535 (comment) bytes.
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (entryName !== name) continue;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL_HEADER) return null;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    if (data.length !== compressed) return null;
    if (method === 0) return data.length <= maxBytes ? Buffer.from(data) : null;
    if (method !== 8) return null;
    try {
      // Bounded: a crafted entry (a plan uploaded by an agent) must not inflate to gigabytes here.
      return inflateRawSync(data, { maxOutputLength: maxBytes });
    } catch {
      return null;
    }
  }
  return null;
}
