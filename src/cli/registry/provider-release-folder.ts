import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readDetachedSignature, type DetachedSignature } from '../../domain/registry/gpg-signature.js';
import { archiveNameOf } from '../../domain/registry/mirror-paths.js';
import { PROTOCOL, VERSION } from '../../domain/registry/provider-names.js';
import { usageError } from '../common/prompts.js';

/**
 * A provider release as goreleaser and HashiCorp ship it, in one folder: the archives
 * `terraform-provider-NAME_VERSION_OS_ARCH.zip`, `terraform-provider-NAME_VERSION_SHA256SUMS`,
 * its detached signature `…_SHA256SUMS.sig`, and maybe `…_manifest.json` (its
 * `metadata.protocol_versions`). Read and checked for `berth registry provider publish` before
 * anything is sent: every archive is listed in SHA256SUMS with its own SHA-256.
 */

export interface ReleasePlatform {
  os: string;
  arch: string;
  filename: string;
  file: string;
  shasum: string;
  size: number;
}

export interface ProviderRelease {
  name: string;
  version: string;
  shasumsFilename: string;
  shasums: Buffer;
  signatureFilename: string;
  signature: DetachedSignature;
  protocols: string[];
  /** Where the protocols came from: the manifest, or the default `["5.0"]`. */
  protocolsFrom: 'manifest' | 'default';
  platforms: ReleasePlatform[];
}

const SHASUMS = /^terraform-provider-([a-z0-9-]+)_([^_/]+)_SHA256SUMS$/;

/** `HEX  FILENAME` lines (sha256sum's; `HEX *FILENAME` in its binary mode), by file name. */
export function parseShasums(text: string, shown: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/\r$/, '');
    if (line.trim() === '') continue;
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line);
    if (!m) throw usageError(`${shown}, line ${i + 1}: not "SHA256  FILENAME"`);
    out.set(m[2], m[1].toLowerCase());
  }
  return out;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The manifest's protocol versions, or null when the release has no manifest. */
async function manifestProtocols(dir: string, filename: string): Promise<string[] | null> {
  const text = await readFile(join(dir, filename), 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (text === null) return null;
  let protocols: unknown;
  try {
    protocols = (JSON.parse(text) as { metadata?: { protocol_versions?: unknown } }).metadata?.protocol_versions;
  } catch (err) {
    throw usageError(`${filename} is not JSON: ${(err as Error).message}`);
  }
  if (
    !Array.isArray(protocols) ||
    protocols.length === 0 ||
    !protocols.every((p) => typeof p === 'string' && PROTOCOL.test(p))
  )
    throw usageError(`${filename}: metadata.protocol_versions must list versions such as "5.0"`);
  return protocols as string[];
}

export async function readProviderRelease(dir: string): Promise<ProviderRelease> {
  if (!(await stat(dir).catch(() => null))?.isDirectory()) throw usageError(`${dir} is no folder`);
  const names = (await readdir(dir)).sort();
  const sums = names.filter((n) => SHASUMS.test(n));
  if (sums.length === 0)
    throw usageError(`${dir} holds no terraform-provider-NAME_VERSION_SHA256SUMS file: not a provider release`);
  if (sums.length > 1)
    throw usageError(`${dir} holds several releases (${sums.join(', ')}): publish them from a folder each`);
  const shasumsFilename = sums[0];
  const [, name, version] = SHASUMS.exec(shasumsFilename)!;
  if (!VERSION.test(version)) throw usageError(`${shasumsFilename}: ${version} is not a semantic version`);
  const shasums = await readFile(join(dir, shasumsFilename));
  const listed = parseShasums(shasums.toString('utf8'), shasumsFilename);

  const signatureFilename = [`${shasumsFilename}.sig`, `${shasumsFilename}.asc`].find((n) => names.includes(n));
  if (!signatureFilename)
    throw usageError(`${dir} holds no ${shasumsFilename}.sig: the signature of SHA256SUMS (gpg --detach-sign)`);
  const signature = readDetachedSignature(await readFile(join(dir, signatureFilename)));
  if (typeof signature === 'string')
    throw usageError(`${signatureFilename} is not a detached OpenPGP signature: ${signature}`);

  const platforms: ReleasePlatform[] = [];
  for (const filename of names.filter((n) => n.endsWith('.zip'))) {
    const parts = archiveNameOf(filename);
    if (!parts || parts.type !== name || parts.version !== version)
      throw usageError(
        `${filename} is not an archive of ${name} ${version} (terraform-provider-${name}_${version}_OS_ARCH.zip)`,
      );
    const listedSum = listed.get(filename);
    if (!listedSum) throw usageError(`${filename} is not listed in ${shasumsFilename}`);
    const file = join(dir, filename);
    const shasum = await sha256Of(file);
    if (shasum !== listedSum)
      throw usageError(`${filename} has SHA-256 ${shasum}, but ${shasumsFilename} lists ${listedSum}`);
    platforms.push({ os: parts.os, arch: parts.arch, filename, file, shasum, size: (await stat(file)).size });
  }
  if (platforms.length === 0)
    throw usageError(`${dir} holds no archive terraform-provider-${name}_${version}_OS_ARCH.zip`);

  const fromManifest = await manifestProtocols(dir, `terraform-provider-${name}_${version}_manifest.json`);
  return {
    name,
    version,
    shasumsFilename,
    shasums,
    signatureFilename,
    signature,
    protocols: fromManifest ?? ['5.0'],
    protocolsFrom: fromManifest ? 'manifest' : 'default',
    platforms,
  };
}
