import { dearmor, readPackets } from './openpgp-packets.js';

/**
 * Reads who made a detached OpenPGP signature (a release's `SHA256SUMS.sig`): the issuer's key ID,
 * from the signature packet's issuer (subpacket 16) or issuer fingerprint (33) subpackets, or a
 * version 3 packet's key ID. The signature itself is not checked: Terraform checks it against the
 * version's key at install.
 */

export interface DetachedSignature {
  /** The issuer's key ID, 16 uppercase hex digits. */
  keyId: string;
  /** The signature as binary packets (an armored one dearmored): what Terraform reads. */
  binary: Buffer;
}

/** The subpackets of a signature's subpacket area: their types and bodies. */
function subpackets(area: Buffer): { type: number; body: Buffer }[] {
  const out: { type: number; body: Buffer }[] = [];
  let i = 0;
  while (i < area.length) {
    const o1 = area[i];
    let length: number;
    if (o1 < 192) [length, i] = [o1, i + 1];
    else if (o1 < 255) [length, i] = [((o1 - 192) << 8) + area[i + 1] + 192, i + 2];
    else [length, i] = [area.readUInt32BE(i + 1), i + 5];
    if (length === 0 || i + length > area.length) break;
    out.push({ type: area[i] & 0x7f, body: area.subarray(i + 1, i + length) });
    i += length;
  }
  return out;
}

/** The issuer key ID of a signature packet's body, or why there is none. */
function issuerOf(body: Buffer): string {
  const version = body[0];
  const hex = (b: Buffer) => b.toString('hex').toUpperCase();
  if (version === 3) return body.length >= 15 ? hex(body.subarray(7, 15)) : 'its signature packet is cut short';
  if (version !== 4 && version !== 5 && version !== 6)
    return `its signature is of OpenPGP version ${version}, which berth does not read`;
  const wide = version !== 4;
  const read = (at: number) => (wide ? body.readUInt32BE(at) : body.readUInt16BE(at));
  const width = wide ? 4 : 2;
  if (body.length < 4 + width) return 'its signature packet is cut short';
  const hashedLength = read(4);
  const hashedEnd = 4 + width + hashedLength;
  if (body.length < hashedEnd + width) return 'its signature packet is cut short';
  const unhashedLength = read(hashedEnd);
  const areas = [
    body.subarray(4 + width, hashedEnd),
    body.subarray(hashedEnd + width, hashedEnd + width + unhashedLength),
  ];
  for (const s of areas.flatMap(subpackets)) {
    if (s.type === 16 && s.body.length === 8) return hex(s.body);
    // Issuer fingerprint: a version byte, then a v4 fingerprint (key ID: its last 8 bytes) or a
    // v6 one (its first 8).
    if (s.type === 33 && s.body.length === 21) return hex(s.body.subarray(13));
    if (s.type === 33 && s.body.length === 33) return hex(s.body.subarray(1, 9));
  }
  return 'its signature names no issuer key';
}

/** Reads a detached signature, binary or armored; a string says what is wrong with it. */
export function readDetachedSignature(data: Buffer): DetachedSignature | string {
  const text = data.subarray(0, 64).toString('latin1');
  let binary = data;
  if (text.includes('-----BEGIN PGP SIGNATURE-----')) {
    const bytes = dearmor(data.toString('utf8'), 'SIGNATURE');
    if (typeof bytes === 'string') return bytes;
    binary = bytes;
  }
  const packets = readPackets(binary);
  if (typeof packets === 'string') return packets;
  const signature = packets.find((p) => p.tag === 2);
  if (!signature) return 'it holds no signature packet';
  const keyId = issuerOf(signature.body);
  if (!/^[0-9A-F]{16}$/.test(keyId)) return keyId;
  return { keyId, binary };
}
