/**
 * The framing of OpenPGP data (RFC 4880 and RFC 9580): ASCII armor and packets. What the registry
 * reads of keys (gpg-armor.ts, gpg-key-info.ts) and of detached signatures (gpg-signature.ts).
 */

export interface Packet {
  tag: number;
  body: Buffer;
}

/**
 * The bytes of an armored block (`-----BEGIN PGP <label>-----`: base64 between its headers and its
 * checksum line), or a reason it has none.
 */
export function dearmor(text: string, label = 'PUBLIC KEY BLOCK'): Buffer | string {
  const begin = `-----BEGIN PGP ${label}-----`;
  const end = `-----END PGP ${label}-----`;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((l) => l.trim() === begin);
  if (start === -1) return `it does not start a "${begin}"`;
  const stop = lines.findIndex((l, i) => i > start && l.trim() === end);
  if (stop === -1) return `it has no "${end}" line`;
  let i = start + 1;
  // Armor headers ("Version: ...", "Comment: ...") end at the first blank line.
  if (lines.slice(i, stop).some((l) => l.trim() === '')) while (i < stop && lines[i].trim() !== '') i++;
  const body = lines
    .slice(i, stop)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('='))
    .join('');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return 'its body is not base64';
  return Buffer.from(body, 'base64');
}

/** The packet at `at`, with where the next one starts, or a reason it cannot be read. */
export function packetAt(bytes: Buffer, at: number): { packet: Packet; next: number } | string {
  if (bytes.length < at + 2 || (bytes[at] & 0x80) === 0) return 'it holds no OpenPGP packet';
  const head = bytes[at];
  let tag: number;
  let start: number;
  let length: number;
  const need = (n: number) => bytes.length >= at + n;
  if (head & 0x40) {
    tag = head & 0x3f;
    const o1 = bytes[at + 1];
    if (o1 < 192) [length, start] = [o1, at + 2];
    else if (o1 < 224 && need(3)) [length, start] = [((o1 - 192) << 8) + bytes[at + 2] + 192, at + 3];
    else if (o1 === 255 && need(6)) [length, start] = [bytes.readUInt32BE(at + 2), at + 6];
    else return 'a packet has a partial length';
  } else {
    tag = (head >> 2) & 0x0f;
    const kind = head & 0x03;
    if (kind === 0) [length, start] = [bytes[at + 1], at + 2];
    else if (kind === 1 && need(3)) [length, start] = [bytes.readUInt16BE(at + 1), at + 3];
    else if (kind === 2 && need(5)) [length, start] = [bytes.readUInt32BE(at + 1), at + 5];
    else return 'a packet has no length';
  }
  if (start + length > bytes.length) return 'a packet is cut short';
  return { packet: { tag, body: bytes.subarray(start, start + length) }, next: start + length };
}

/** Every packet of `bytes`, in order, or a reason they cannot be read. */
export function readPackets(bytes: Buffer): Packet[] | string {
  const out: Packet[] = [];
  for (let at = 0; at < bytes.length;) {
    const read = packetAt(bytes, at);
    if (typeof read === 'string') return read;
    out.push(read.packet);
    at = read.next;
  }
  return out.length === 0 ? 'it holds no OpenPGP packet' : out;
}
