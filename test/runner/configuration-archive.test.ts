import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHUNK_BYTES,
  ENTRY_OVERHEAD_BYTES,
  extractConfiguration,
  type ConfigurationBounds,
} from '../../src/runner/configuration-archive.js';
import { files, gzipBomb } from '../helpers/tar-bomb.js';

/**
 * The configuration's extraction with bounded memory: the archive is inflated a chunk at a time
 * and tar gets the next chunk only once it has written the last, the inflated bytes are counted as
 * they come (whatever the headers say), and an extraction that stops has closed every file tar
 * began when it answers. Memory is asserted through what tar is handed (never through RSS, which
 * the benchmark bench/configuration-bomb.mjs measures).
 */

const MiB = 1024 * 1024;
const tooLarge = (bytes: number) => `The configuration unpacks to more than ${bytes} bytes: berth unpacks no more`;

describe('extracting a configuration', () => {
  let work: string;
  beforeEach(() => {
    work = mkdtempSync(join(tmpdir(), 'berth-extract-'));
  });
  afterEach(() => {
    rmSync(work, { recursive: true, force: true });
  });

  /** Extracts `archive`, noting the chunks handed to tar; answers why it stopped, or what it threw. */
  const extract = async (archive: Buffer, bounds: ConfigurationBounds, onChunk?: (bytes: number) => void) => {
    const chunks: number[] = [];
    const outcome = await extractConfiguration(archive, work, bounds, {
      chunk: (bytes) => {
        chunks.push(bytes);
        onChunk?.(bytes);
      },
    }).then(
      (over) => ({ over, error: null }),
      (err: Error) => ({ over: null, error: err.message }),
    );
    const handed = chunks.reduce((n, c) => n + c, 0);
    return { ...outcome, handed, largest: Math.max(0, ...chunks) };
  };

  it('stops a gzip bomb at its bound, a chunk at a time, before inflating the rest', async () => {
    // 20 files of 4 MiB of zeros (80 MiB) in an archive of about 80 KB; the bound is 10 MiB.
    const archive = await gzipBomb(files(20, 4 * MiB));
    expect(archive.length).toBeLessThan(200_000);
    const bounds = { bytes: 10 * MiB, entries: 100 };
    const run = await extract(archive, bounds);
    expect(run).toMatchObject({ over: tooLarge(10 * MiB), error: null });
    expect(run.largest).toBeLessThanOrEqual(CHUNK_BYTES);
    // Stopped at the third file's header: its body was never inflated, nor the 17 after it.
    expect(run.handed).toBeLessThanOrEqual(2 * (4 * MiB + 512) + 512 + CHUNK_BYTES);
    // The two files before the bound were written whole: tar had finished them when it answered.
    expect(readdirSync(work).sort()).toEqual(['zeros-0', 'zeros-1']);
    for (const name of ['zeros-0', 'zeros-1']) expect(statSync(join(work, name)).size).toBe(4 * MiB);
  });

  it('hands tar no chunk while it is still writing the last ones (its backpressure)', async () => {
    // One file of 32 MiB, within the bounds: at each chunk, tar has written all but a few to disk.
    const archive = await gzipBomb(files(1, 32 * MiB));
    let handed = 0;
    let widest = 0;
    const run = await extract(archive, { bytes: 64 * MiB, entries: 10 }, (bytes) => {
      const written = existsSync(join(work, 'zeros-0')) ? statSync(join(work, 'zeros-0')).size : 0;
      widest = Math.max(widest, handed - written);
      handed += bytes;
    });
    expect(run).toMatchObject({ over: null, error: null });
    expect(statSync(join(work, 'zeros-0')).size).toBe(32 * MiB);
    expect(run.largest).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(widest).toBeLessThanOrEqual(4 * CHUNK_BYTES);
  });

  it('counts the inflated bytes, not only the sizes the file headers give', async () => {
    // Pax headers of 2 MiB each: tar skips them (over its 1 MiB for a meta entry) and never asks
    // the filter about them, so that only the count of inflated bytes sees them.
    const archive = await gzipBomb(
      Array.from({ length: 40 }, (_, i) => ({ path: `pax-${i}`, size: 2 * MiB, type: 'ExtendedHeader' as const })),
    );
    const bounds = { bytes: 1 * MiB, entries: 10 };
    const run = await extract(archive, bounds);
    expect(run).toMatchObject({ over: tooLarge(1 * MiB), error: null });
    expect(run.handed).toBeLessThanOrEqual(bounds.bytes + bounds.entries * ENTRY_OVERHEAD_BYTES);
    expect(readdirSync(work)).toEqual([]);
  });

  it("hands tar nothing past the archive's end", async () => {
    const archive = await gzipBomb(files(1, 100, 'main.tf', 0x20), 64 * MiB);
    const run = await extract(archive, { bytes: 1 * MiB, entries: 10 });
    expect(run).toMatchObject({ over: null, error: null });
    expect(run.handed).toBeLessThanOrEqual(CHUNK_BYTES);
    expect(readFileSync(join(work, 'main.tf-0'), 'utf8')).toBe(' '.repeat(100));
  });

  it('refuses an archive gzipped twice (tar would inflate the inner one whole)', async () => {
    const inner = await gzipBomb(files(1, 8 * MiB));
    const run = await extract(gzipSync(inner), { bytes: 1 * MiB, entries: 10 });
    expect(run.error).toMatch(/gzipped again/);
    expect(run.handed).toBe(0);
  });

  it('answers, stopped, only once every file tar began is written, so that the folder goes at once', async () => {
    // Many small files, then one past the bound: before, tar was still creating the small files
    // after the extraction had answered, and removing the folder failed (ENOTEMPTY).
    const archive = await gzipBomb([...files(500, 100, 'small', 0x20), ...files(2, 2 * MiB)]);
    const run = await extract(archive, { bytes: 1 * MiB, entries: 1000 });
    expect(run.over).toBe(tooLarge(1 * MiB));
    const names = readdirSync(work);
    expect(names).toHaveLength(500);
    for (const name of names) expect(statSync(join(work, name)).size).toBe(100);
    await rm(work, { recursive: true });
    expect(existsSync(work)).toBe(false);
  });

  it('a damaged gzip stream ends it with the inflater’s error, after tar closed its files', async () => {
    // Cut in the last file's zeros (a compressed byte is about a KiB of them): tar never sees the end.
    const archive = await gzipBomb([...files(50, 100, 'small', 0x20), ...files(1, 16 * MiB)]);
    const run = await extract(archive.subarray(0, archive.length - 2000), { bytes: 64 * MiB, entries: 1000 });
    expect(run.error).toMatch(/unexpected end of file/);
    expect(readdirSync(work).filter((n) => n.startsWith('small'))).toHaveLength(50);
    await rm(work, { recursive: true });
  });
});
