import { createHash } from 'node:crypto';

/**
 * Reads what berth needs from an ASCII-armored OpenPGP public key (RFC 4880 and RFC 9580): the
 * key ID of its primary key, which HCP's GPG Keys API derives from the armor and provider versions
 * name. Signatures are not checked here: Terraform checks SHA256SUMS against the key itself.
 */

export interface ArmoredKey {
  /** The primary key's key ID: 16 uppercase hex digits. */
  keyId: string;
  /** The primary key's fingerprint, uppercase hex. */
  fingerprint: string;
}

const BEGIN = '-----BEGIN PGP PUBLIC KEY BLOCK-----';
const END = '-----END PGP PUBLIC KEY BLOCK-----';

/** The armor's bytes (base64 between the headers and the checksum line), or a reason it has none. */
function dearmor(text: string): Buffer | string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((l) => l.trim() === BEGIN);
  if (start === -1) return `it does not start a "${BEGIN}"`;
  const end = lines.findIndex((l, i) => i > start && l.trim() === END);
  if (end === -1) return `it has no "${END}" line`;
  let i = start + 1;
  // Armor headers ("Version: ...", "Comment: ...") end at the first blank line.
  if (lines.slice(i, end).some((l) => l.trim() === '')) while (i < end && lines[i].trim() !== '') i++;
  const body = lines
    .slice(i, end)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('='))
    .join('');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return 'its body is not base64';
  return Buffer.from(body, 'base64');
}

/** The first packet: its tag and body. */
function firstPacket(bytes: Buffer): { tag: number; body: Buffer } | string {
  if (bytes.length < 2 || (bytes[0] & 0x80) === 0) return 'it holds no OpenPGP packet';
  const head = bytes[0];
  let tag: number;
  let at: number;
  let length: number;
  if (head & 0x40) {
    tag = head & 0x3f;
    const o1 = bytes[1];
    if (o1 < 192) [length, at] = [o1, 2];
    else if (o1 < 224) [length, at] = [((o1 - 192) << 8) + bytes[2] + 192, 3];
    else if (o1 === 255) [length, at] = [bytes.readUInt32BE(2), 6];
    else return 'its first packet has a partial length';
  } else {
    tag = (head >> 2) & 0x0f;
    const kind = head & 0x03;
    if (kind === 0) [length, at] = [bytes[1], 2];
    else if (kind === 1) [length, at] = [bytes.readUInt16BE(1), 3];
    else if (kind === 2) [length, at] = [bytes.readUInt32BE(1), 5];
    else return 'its first packet has no length';
  }
  if (at + length > bytes.length) return 'its first packet is cut short';
  return { tag, body: bytes.subarray(at, at + length) };
}

/** Parses the armor; a string says what is wrong with it. */
export function readArmoredKey(text: string): ArmoredKey | string {
  const bytes = dearmor(text);
  if (typeof bytes === 'string') return bytes;
  const packet = firstPacket(bytes);
  if (typeof packet === 'string') return packet;
  if (packet.tag !== 6) return 'its first packet is not a public key';
  const version = packet.body[0];
  if (version === 4) {
    const prefix = Buffer.from([0x99, packet.body.length >> 8, packet.body.length & 0xff]);
    const fp = createHash('sha1').update(prefix).update(packet.body).digest();
    return { fingerprint: fp.toString('hex').toUpperCase(), keyId: fp.subarray(12).toString('hex').toUpperCase() };
  }
  if (version === 5 || version === 6) {
    const prefix = Buffer.alloc(5);
    prefix[0] = version === 6 ? 0x9b : 0x9a;
    prefix.writeUInt32BE(packet.body.length, 1);
    const fp = createHash('sha256').update(prefix).update(packet.body).digest();
    return { fingerprint: fp.toString('hex').toUpperCase(), keyId: fp.subarray(0, 8).toString('hex').toUpperCase() };
  }
  return `its key is of OpenPGP version ${version}, which berth does not read`;
}
