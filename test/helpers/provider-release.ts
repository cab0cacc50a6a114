import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipOf, type ThrowawayKey } from './provider-package.js';

/**
 * A provider release folder as goreleaser writes it (`dist/`), for `berth registry provider
 * publish`: one stand-in archive per platform, SHA256SUMS listing them (and the manifest, as
 * goreleaser's does), its detached signature by `key`, and the manifest when `protocols` is given.
 * Another `build` gives other archives of the same version.
 */
export interface ReleaseFolder {
  dir: string;
  name: string;
  version: string;
  shasums: Buffer;
  archives: { platform: string; filename: string; zip: Buffer; shasum: string }[];
}

export function writeRelease(
  dir: string,
  key: ThrowawayKey,
  name: string,
  version: string,
  platforms: string[],
  options: { protocols?: string[]; armored?: boolean; build?: string } = {},
): ReleaseFolder {
  mkdirSync(dir, { recursive: true });
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const archives = platforms.map((platform) => {
    const filename = `terraform-provider-${name}_${version}_${platform}.zip`;
    const zip = zipOf({
      [`terraform-provider-${name}_v${version}`]: Buffer.from(
        `#!/bin/sh\n# ${platform} ${options.build ?? ''}\nexit 1\n`,
      ),
    });
    writeFileSync(join(dir, filename), zip);
    return { platform, filename, zip, shasum: sha(zip) };
  });
  const lines = archives.map((a) => `${a.shasum}  ${a.filename}`);
  if (options.protocols) {
    const manifest = Buffer.from(JSON.stringify({ version: 1, metadata: { protocol_versions: options.protocols } }));
    const filename = `terraform-provider-${name}_${version}_manifest.json`;
    writeFileSync(join(dir, filename), manifest);
    lines.push(`${sha(manifest)}  ${filename}`);
  }
  const shasums = Buffer.from(`${lines.sort().join('\n')}\n`);
  const base = `terraform-provider-${name}_${version}_SHA256SUMS`;
  writeFileSync(join(dir, base), shasums);
  const signature = key.sign(shasums);
  writeFileSync(join(dir, `${base}.sig`), options.armored ? armorSignature(signature) : signature);
  return { dir, name, version, shasums, archives };
}

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

/** `gpg --armor --detach-sign`'s form of a signature. */
export function armorSignature(binary: Buffer): string {
  const c = crc24(binary);
  const crc = Buffer.from([c >> 16, (c >> 8) & 0xff, c & 0xff]).toString('base64');
  const b64 = binary.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN PGP SIGNATURE-----\n\n${b64.replace(/\n$/, '')}\n=${crc}\n-----END PGP SIGNATURE-----\n`;
}

/** The armor of `primary` with `sub`'s key appended as a subkey packet (no binding signature: enough to read its key IDs). */
export function withSubkey(primary: ThrowawayKey, sub: ThrowawayKey): string {
  const bytesOf = (armor: string) =>
    Buffer.from(
      armor
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('-----') && !l.startsWith('='))
        .join(''),
      'base64',
    );
  const subBytes = bytesOf(sub.asciiArmor);
  // The first packet of the throwaway armor: a new-format public key packet (tag 6), two-octet length.
  const first =
    subBytes[1] < 192 ? { at: 2, len: subBytes[1] } : { at: 3, len: ((subBytes[1] - 192) << 8) + subBytes[2] + 192 };
  const body = subBytes.subarray(first.at, first.at + first.len);
  const n = body.length;
  const head =
    n < 192 ? Buffer.from([0xc0 | 14, n]) : Buffer.from([0xc0 | 14, ((n - 192) >> 8) + 192, (n - 192) & 0xff]);
  const block = Buffer.concat([bytesOf(primary.asciiArmor), head, body]);
  const c = crc24(block);
  const crc = Buffer.from([c >> 16, (c >> 8) & 0xff, c & 0xff]).toString('base64');
  const b64 = block.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${b64.replace(/\n$/, '')}\n=${crc}\n-----END PGP PUBLIC KEY BLOCK-----\n`;
}
