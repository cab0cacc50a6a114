import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { payloadTooLarge } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { ARCHIVE_CHUNK_BYTES } from '../../domain/registry/provider-limits.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { Clock } from '../../domain/common/clock.js';

/**
 * The bytes of provider packages (migration 046): stored a chunk of ARCHIVE_CHUNK_BYTES per row,
 * written as the upload arrives and read back one chunk at a time, so that no archive is ever
 * held whole in memory (by serve, an upload, or a download). Each chunk is its own short write
 * transaction: an upload of hundreds of megabytes never holds the write lock while the network
 * is slow. The archive becomes `complete` in the transaction of whoever points at it
 * (`completeArchive`); one an upload left half-written (a client gone, a crash) is removed by
 * that upload's failure, or with its organization.
 */

/** The bytes of an upload as they arrive. */
export type Chunks = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

export interface StoredArchive {
  id: string;
  size: number;
  sha256: string;
}

/**
 * Stores the bytes of `chunks` as a new, incomplete archive of the organization: at most `limit`
 * bytes (413 past them, with what was written removed). Any failure removes what was written.
 */
export async function storeArchive(
  db: Kysely<DB>,
  clock: Clock,
  organizationId: string,
  chunks: Chunks,
  limit: number,
): Promise<StoredArchive> {
  const id = newId('rarch');
  await writeTransaction(db, (tx) =>
    tx
      .insertInto('registry_archives')
      .values({
        id,
        organization_id: organizationId,
        size: 0,
        sha256: null,
        complete: 0,
        created_at: clock.now().toISOString(),
      })
      .execute(),
  );
  const hash = createHash('sha256');
  let size = 0;
  let part = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const body = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    const n = part++;
    await writeTransaction(db, (tx) =>
      tx.insertInto('registry_archive_chunks').values({ archive_id: id, part: n, body }).execute(),
    );
  };
  try {
    for await (const chunk of chunks) {
      let bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      size += bytes.length;
      if (size > limit) throw payloadTooLarge(`provider archives are limited to ${limit} bytes`);
      hash.update(bytes);
      while (bytes.length > 0) {
        const room = ARCHIVE_CHUNK_BYTES - pendingBytes;
        // A copy: the stream may reuse its buffers once this chunk was taken.
        pending.push(Buffer.from(bytes.subarray(0, room)));
        pendingBytes += Math.min(room, bytes.length);
        bytes = bytes.subarray(room);
        if (pendingBytes === ARCHIVE_CHUNK_BYTES) await flush();
      }
    }
    await flush();
  } catch (err) {
    await discardArchive(db, id).catch(() => undefined);
    throw err;
  }
  const sha256 = hash.digest('hex');
  await writeTransaction(db, (tx) =>
    tx.updateTable('registry_archives').set({ size, sha256 }).where('id', '=', id).execute(),
  );
  return { id, size, sha256 };
}

/** Marks an archive whole, in the transaction that points at it. */
export async function completeArchive(tx: Tx, id: string): Promise<void> {
  await tx.updateTable('registry_archives').set({ complete: 1 }).where('id', '=', id).execute();
}

/** Removes archives and their chunks, in the transaction of whoever removes what pointed at them. */
export async function removeArchives(tx: Tx, ids: (string | null)[]): Promise<void> {
  const list = ids.filter((x): x is string => x !== null);
  if (list.length === 0) return;
  await tx.deleteFrom('registry_archive_chunks').where('archive_id', 'in', list).execute();
  await tx.deleteFrom('registry_archives').where('id', 'in', list).execute();
}

/** Removes an archive nothing points at (an upload that failed), in a transaction of its own. */
export async function discardArchive(db: Kysely<DB>, id: string): Promise<void> {
  await writeTransaction(db, (tx) => removeArchives(tx, [id]));
}

/** A complete archive's size and digest, or null. */
export async function archiveInfo(db: Kysely<DB>, id: string): Promise<{ size: number; sha256: string } | null> {
  const row = await db
    .selectFrom('registry_archives')
    .select(['size', 'sha256', 'complete'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row || row.complete !== 1 || row.sha256 === null) return null;
  return { size: row.size, sha256: row.sha256 };
}

/** The archive's bytes as a stream that reads one chunk from the database per pull. */
export function archiveStream(db: Kysely<DB>, id: string): ReadableStream<Uint8Array> {
  let part = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const row = await db
        .selectFrom('registry_archive_chunks')
        .select('body')
        .where('archive_id', '=', id)
        .where('part', '=', part)
        .executeTakeFirst();
      part++;
      if (!row) controller.close();
      else controller.enqueue(new Uint8Array(row.body.buffer, row.body.byteOffset, row.body.byteLength));
    },
  });
}
