import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * A stand-in provider package for the registry's tests, made without gpg or a zip tool: a zip
 * archive holding an executable `terraform-provider-NAME_vVERSION` (a shell script; `terraform
 * init` verifies and unpacks it, never runs it), its SHA256SUMS, and a throwaway OpenPGP (RFC
 * 4880, version 4, RSA) key whose detached signature of SHA256SUMS Terraform checks.
 */

// ---- OpenPGP -------------------------------------------------------------------------------

function packet(tag: number, body: Buffer): Buffer {
  const n = body.length;
  let len: Buffer;
  if (n < 192) len = Buffer.from([n]);
  else if (n < 8384) len = Buffer.from([((n - 192) >> 8) + 192, (n - 192) & 0xff]);
  else {
    len = Buffer.alloc(5);
    len[0] = 0xff;
    len.writeUInt32BE(n, 1);
  }
  return Buffer.concat([Buffer.from([0xc0 | tag]), len, body]);
}

function mpi(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  const b = bytes.subarray(i);
  const bits = (b.length - 1) * 8 + (32 - Math.clz32(b[0]));
  const head = Buffer.alloc(2);
  head.writeUInt16BE(bits);
  return Buffer.concat([head, b]);
}

function subpacket(type: number, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from([data.length + 1, type]), data]);
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};

function crc24(data: Buffer): number {
  let crc = 0xb704ce;
  for (const byte of data) {
    crc ^= byte << 16;
    for (let i = 0; i < 8; i++) {
      crc <<= 1;
      if (crc & 0x1000000) crc ^= 0x1864cfb;
    }
  }
  return crc & 0xffffff;
}

export interface ThrowawayKey {
  keyId: string;
  fingerprint: string;
  asciiArmor: string;
  /** A detached binary signature of `data`. */
  sign(data: Buffer): Buffer;
}

/** The key's creation time: fixed, in the past (signatures are dated alike). */
const CREATED = 1_700_000_000;

export function throwawayKey(userId = 'berth tests <tests@berth.test>'): ThrowawayKey {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  const keyBody = Buffer.concat([
    Buffer.from([4]),
    u32(CREATED),
    Buffer.from([1]),
    mpi(Buffer.from(jwk.n, 'base64url')),
    mpi(Buffer.from(jwk.e, 'base64url')),
  ]);
  const fp = createHash('sha1')
    .update(Buffer.concat([Buffer.from([0x99]), u16(keyBody.length), keyBody]))
    .digest();
  const keyId = fp.subarray(12);
  const signature = (type: number, prefix: Buffer, extraHashed: Buffer[] = []) => {
    const hashed = Buffer.concat([
      subpacket(2, u32(CREATED)),
      subpacket(33, Buffer.concat([Buffer.from([4]), fp])),
      ...extraHashed,
    ]);
    const head = Buffer.concat([Buffer.from([4, type, 1, 8]), u16(hashed.length), hashed]);
    const trailer = Buffer.concat([Buffer.from([4, 0xff]), u32(head.length)]);
    const message = Buffer.concat([prefix, head, trailer]);
    const digest = createHash('sha256').update(message).digest();
    const sig = sign('sha256', message, privateKey);
    const unhashed = subpacket(16, keyId);
    return packet(2, Buffer.concat([head, u16(unhashed.length), unhashed, digest.subarray(0, 2), mpi(sig)]));
  };
  const uid = Buffer.from(userId, 'utf8');
  const keyPrefix = Buffer.concat([Buffer.from([0x99]), u16(keyBody.length), keyBody]);
  const certification = signature(0x13, Buffer.concat([keyPrefix, Buffer.from([0xb4]), u32(uid.length), uid]), [
    subpacket(27, Buffer.from([0x03])),
  ]);
  const block = Buffer.concat([packet(6, keyBody), packet(13, uid), certification]);
  const b64 = block.toString('base64').replace(/(.{64})/g, '$1\n');
  const crc = Buffer.from([crc24(block) >> 16, (crc24(block) >> 8) & 0xff, crc24(block) & 0xff]).toString('base64');
  const asciiArmor = `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${b64.replace(/\n$/, '')}\n=${crc}\n-----END PGP PUBLIC KEY BLOCK-----\n`;
  return {
    keyId: keyId.toString('hex').toUpperCase(),
    fingerprint: fp.toString('hex').toUpperCase(),
    asciiArmor,
    sign: (data) => signature(0x00, data),
  };
}

// ---- zip -----------------------------------------------------------------------------------

/** A zip archive (stored, no compression) of executable files. */
export function zipOf(files: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const fname = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fname.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fname.length, 28);
    central.writeUInt32LE((0o100755 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fname, data);
    centrals.push(central, fname);
    offset += local.length + fname.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

// ---- the package ---------------------------------------------------------------------------

export interface StandInPackage {
  name: string;
  version: string;
  os: string;
  arch: string;
  filename: string;
  zip: Buffer;
  shasum: string;
  shasums: Buffer;
  signature: Buffer;
}

/** The machine's platform as Terraform names it (linux_amd64 here). */
export function hostPlatform(): { os: string; arch: string } {
  const arch = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' }[process.arch as string] ?? process.arch;
  return { os: process.platform === 'win32' ? 'windows' : process.platform, arch };
}

export function standInPackage(key: ThrowawayKey, name: string, version: string): StandInPackage {
  const { os, arch } = hostPlatform();
  const filename = `terraform-provider-${name}_${version}_${os}_${arch}.zip`;
  const script = Buffer.from('#!/bin/sh\necho "a stand-in provider: it cannot serve terraform" >&2\nexit 1\n');
  const zip = zipOf({ [`terraform-provider-${name}_v${version}`]: script });
  const shasum = createHash('sha256').update(zip).digest('hex');
  const shasums = Buffer.from(`${shasum}  ${filename}\n`);
  return { name, version, os, arch, filename, zip, shasum, shasums, signature: key.sign(shasums) };
}
