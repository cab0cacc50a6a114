import type { BerthClient } from '../../client/client.js';
import { GpgKeysClient } from '../../client/gpg-keys.js';
import type { Resource } from '../../client/jsonapi.js';
import {
  RegistryProvidersClient,
  type ProviderPlatformAttributes,
  type ProviderRef,
  type ProviderVersionAttributes,
  type RegistryProviderAttributes,
} from '../../client/registry-providers.js';
import { BerthError, conflict } from '../../domain/common/errors.js';
import { readArmoredKeyDetails } from '../../domain/registry/gpg-armor.js';
import type { ProviderRelease } from './provider-release-folder.js';

/**
 * `berth registry provider publish`: a release folder (provider-release-folder.ts) into the
 * organization's private registry through HCP's APIs, as go-tfe's callers do: the provider when
 * missing, the version (its key and protocols), SHA256SUMS and its signature, then each platform
 * and its archive. Everything that would refuse is checked before the first write; a version left
 * half-published (an upload that failed) is completed by publishing again.
 */

export interface PublishOutcome {
  provider: Resource<RegistryProviderAttributes>;
  version: Resource<ProviderVersionAttributes>;
  platforms: Resource<ProviderPlatformAttributes>[];
  keyId: string;
  providerCreated: boolean;
  versionCreated: boolean;
  /** The files sent this time. */
  uploaded: string[];
}

const orNull = <T>(p: Promise<T>): Promise<T | null> =>
  p.catch((err: unknown) => {
    if (err instanceof BerthError && err.status === 404) return null;
    throw err;
  });

const unprocessable = (detail: string) => new BerthError([{ status: 422, title: 'unprocessable entity', detail }]);

/** The registered key that signed the release: by its key ID, or as the primary key of the signing subkey. */
async function signingKey(client: BerthClient, org: string, release: ProviderRelease, given?: string) {
  const wanted = (given ?? release.signature.keyId).toUpperCase();
  const keys = await new GpgKeysClient(client).list(org);
  const own = keys.find((k) => k.attributes['key-id'] === wanted);
  if (own) return wanted;
  if (!given) {
    const parent = keys.find((k) => {
      const details = readArmoredKeyDetails(k.attributes['ascii-armor']);
      return typeof details !== 'string' && details.subkeyIds.includes(wanted);
    });
    if (parent) return parent.attributes['key-id'];
  }
  const by = given ? 'given with --key-id' : `that signed ${release.signatureFilename}`;
  throw unprocessable(
    `GPG key ${wanted} (${by}) is not registered in ${org}: add its public key first, berth registry gpg-key add KEY.asc --org ${org}`,
  );
}

/** Refuses an existing version that is complete, or that differs from the release. */
async function checkExisting(
  providers: RegistryProvidersClient,
  ref: ProviderRef,
  release: ProviderRelease,
  keyId: string,
  version: Resource<ProviderVersionAttributes>,
  platforms: Resource<ProviderPlatformAttributes>[],
): Promise<void> {
  const a = version.attributes;
  const what = `${ref.name} ${release.version}`;
  const again = `delete it first (berth registry provider delete ${ref.name} --version ${release.version}) or publish another version`;
  if (a['key-id'] !== keyId) throw conflict(`${what} is already published with GPG key ${a['key-id']}: ${again}`);
  const byPlatform = new Map(platforms.map((p) => [`${p.attributes.os}_${p.attributes.arch}`, p]));
  for (const p of release.platforms) {
    const there = byPlatform.get(`${p.os}_${p.arch}`);
    if (there && there.attributes.shasum !== p.shasum)
      throw conflict(
        `${what} already has ${p.os}_${p.arch} with another archive (${there.attributes.shasum}): ${again}`,
      );
  }
  const links = version.links ?? {};
  if (a['shasums-uploaded'] && links['shasums-download']) {
    const held = await providers.download(links['shasums-download']);
    if (!held.equals(release.shasums))
      throw conflict(`${what} already has another ${release.shasumsFilename}: ${again}`);
  }
  if (a['shasums-sig-uploaded'] && links['shasums-sig-download']) {
    const held = await providers.download(links['shasums-sig-download']);
    if (!held.equals(release.signature.binary))
      throw conflict(`${what} already has another signature of SHA256SUMS: ${again}`);
  }
  const complete =
    a['shasums-uploaded'] &&
    a['shasums-sig-uploaded'] &&
    release.platforms.every((p) => byPlatform.get(`${p.os}_${p.arch}`)?.attributes['provider-binary-uploaded']);
  if (complete) throw conflict(`${what} is already published in full: publish another version`);
}

export async function publishRelease(
  client: BerthClient,
  ref: ProviderRef,
  release: ProviderRelease,
  options: { keyId?: string } = {},
): Promise<PublishOutcome> {
  const providers = new RegistryProvidersClient(client);
  const keyId = await signingKey(client, ref.org, release, options.keyId);
  const existingProvider = await orNull(providers.get(ref));
  const existingVersion = existingProvider ? await orNull(providers.version(ref, release.version)) : null;
  const existingPlatforms = existingVersion ? await providers.platforms(ref, release.version) : [];
  if (existingVersion) await checkExisting(providers, ref, release, keyId, existingVersion, existingPlatforms);

  const uploaded: string[] = [];
  const provider = existingProvider ?? (await providers.create(ref));
  const version =
    existingVersion ??
    (await providers.createVersion(ref, { version: release.version, keyId, protocols: release.protocols }));
  const links = version.links ?? {};
  if (!version.attributes['shasums-uploaded'] && links['shasums-upload']) {
    await providers.upload(links['shasums-upload'], { bytes: release.shasums });
    uploaded.push(release.shasumsFilename);
  }
  if (!version.attributes['shasums-sig-uploaded'] && links['shasums-sig-upload']) {
    await providers.upload(links['shasums-sig-upload'], { bytes: release.signature.binary });
    uploaded.push(release.signatureFilename);
  }
  const byPlatform = new Map(existingPlatforms.map((p) => [`${p.attributes.os}_${p.attributes.arch}`, p]));
  for (const p of release.platforms) {
    const platform =
      byPlatform.get(`${p.os}_${p.arch}`) ??
      (await providers.createPlatform(ref, release.version, {
        os: p.os,
        arch: p.arch,
        shasum: p.shasum,
        filename: p.filename,
      }));
    const link = platform.links?.['provider-binary-upload'];
    if (!platform.attributes['provider-binary-uploaded'] && link) {
      await providers.upload(link, { file: p.file });
      uploaded.push(p.filename);
    }
  }
  return {
    provider,
    version: await providers.version(ref, release.version),
    platforms: await providers.platforms(ref, release.version),
    keyId,
    providerCreated: !existingProvider,
    versionCreated: !existingVersion,
    uploaded,
  };
}
