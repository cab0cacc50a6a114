/**
 * The bounds of what the provider registry and the mirror store (docs/api.md, "Private providers").
 * Archives go through memory a chunk at a time, whatever their size.
 */

/** The largest provider package (a zip archive): 1 GiB, more than any released provider. */
export const MAX_PROVIDER_ARCHIVE_BYTES = 1024 * 1024 * 1024;
/** The bytes of an archive kept per row, and the most an upload or a download holds at once. */
export const ARCHIVE_CHUNK_BYTES = 1024 * 1024;
/** A version's SHA256SUMS file: one line per platform. */
export const MAX_SHASUMS_BYTES = 1024 * 1024;
/** A detached OpenPGP signature of the SHA256SUMS file. */
export const MAX_SHASUMS_SIGNATURE_BYTES = 64 * 1024;
/** An ASCII-armored public key. */
export const MAX_ASCII_ARMOR_CHARS = 256 * 1024;
/** The hashes a mirror push may give for one archive (`h1:`). */
export const MAX_MIRROR_HASHES = 8;
