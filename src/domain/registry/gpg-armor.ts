import { createHash } from 'node:crypto';
import { dearmor, packetAt, readPackets } from './openpgp-packets.js';

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

/** The key ID and fingerprint of a public key or subkey packet's body (v4, v5, v6), or why not. */
export function keyOfPacketBody(body: Buffer): ArmoredKey | string {
  const version = body[0];
  if (version === 4) {
    const prefix = Buffer.from([0x99, body.length >> 8, body.length & 0xff]);
    const fp = createHash('sha1').update(prefix).update(body).digest();
    return { fingerprint: fp.toString('hex').toUpperCase(), keyId: fp.subarray(12).toString('hex').toUpperCase() };
  }
  if (version === 5 || version === 6) {
    const prefix = Buffer.alloc(5);
    prefix[0] = version === 6 ? 0x9b : 0x9a;
    prefix.writeUInt32BE(body.length, 1);
    const fp = createHash('sha256').update(prefix).update(body).digest();
    return { fingerprint: fp.toString('hex').toUpperCase(), keyId: fp.subarray(0, 8).toString('hex').toUpperCase() };
  }
  return `its key is of OpenPGP version ${version}, which berth does not read`;
}

/** Parses the armor; a string says what is wrong with it. */
export function readArmoredKey(text: string): ArmoredKey | string {
  const bytes = dearmor(text);
  if (typeof bytes === 'string') return bytes;
  const read = packetAt(bytes, 0);
  if (typeof read === 'string') return read;
  if (read.packet.tag !== 6) return 'its first packet is not a public key';
  return keyOfPacketBody(read.packet.body);
}

export interface ArmoredKeyDetails extends ArmoredKey {
  /** The key IDs of its subkeys (a release is often signed by a signing subkey). */
  subkeyIds: string[];
  /** Its user IDs, `Name <email>`. */
  userIds: string[];
}

/** The primary key, subkeys and user IDs of an armored key; a string says what is wrong with it. */
export function readArmoredKeyDetails(text: string): ArmoredKeyDetails | string {
  const primary = readArmoredKey(text);
  if (typeof primary === 'string') return primary;
  const packets = readPackets(dearmor(text) as Buffer);
  if (typeof packets === 'string') return packets;
  const subkeyIds: string[] = [];
  const userIds: string[] = [];
  for (const p of packets) {
    if (p.tag === 13) userIds.push(p.body.toString('utf8'));
    if (p.tag !== 14) continue;
    const sub = keyOfPacketBody(p.body);
    if (typeof sub !== 'string') subkeyIds.push(sub.keyId);
  }
  return { ...primary, subkeyIds, userIds };
}
