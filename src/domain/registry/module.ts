import { Problems } from '../common/errors.js';

/**
 * The private module registry's rules (HCP's Private Registry Modules API, the module registry
 * protocol): what a module and a version are, which names and versions are valid, and what a
 * version's status says about its archive.
 */

/** HCP's registry names: `private` (modules published here) and `public` (references to modules of the public registry). */
export const REGISTRY_NAMES = ['private', 'public'] as const;
export type RegistryName = (typeof REGISTRY_NAMES)[number];

/** A version is `pending` until its archive is uploaded in full, `ok` after: only then can it be downloaded. */
export type ModuleVersionStatus = 'pending' | 'ok';

export interface ModuleVersionSummary {
  version: string;
  status: ModuleVersionStatus;
}

export interface RegistryModule {
  id: string;
  organizationName: string;
  registryName: RegistryName;
  /** A private module's is its organization's name. */
  namespace: string;
  name: string;
  provider: string;
  noCode: boolean;
  /** Its versions, newest first (by semantic version). */
  versions: ModuleVersionSummary[];
  createdAt: string;
  updatedAt: string;
  /** Whether the caller may delete it (HCP's `permissions`). */
  canManage: boolean;
}

export interface RegistryModuleVersion {
  id: string;
  moduleId: string;
  version: string;
  status: ModuleVersionStatus;
  size: number;
  createdAt: string;
  updatedAt: string;
  /** In the create's answer only: the signed query of its upload URL. */
  uploadQuery: string | null;
}

/** Where a module is: the address of the registry protocol and of HCP's API paths. */
export interface ModuleAddress {
  organization: string;
  registryName: RegistryName;
  namespace: string;
  name: string;
  provider: string;
}

/** The largest module archive an upload may send (as a configuration version's). */
export const MAX_MODULE_ARCHIVE_BYTES = 64 * 1024 * 1024;

/** How long a module's download URL (`X-Terraform-Get`) works: terraform fetches it at once. */
export const MODULE_DOWNLOAD_TTL_SECONDS = 300;

/** The signed purposes of a version's URLs (domain/runs/run-execution.ts, `signedRunQuery`). */
export const MODULE_UPLOAD_PURPOSE = 'registry-module-upload';
export const MODULE_DOWNLOAD_PURPOSE = 'registry-module-download';

/**
 * A module's name: letters, digits, dashes and underscores (the registry protocol's, which HCP
 * checks), at most 64 characters. Provider: lowercase letters and digits (the protocol's
 * "provider" is a provider's type name), at most 64.
 */
const NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,63})$/;
const PROVIDER = /^[a-z0-9]{1,64}$/;
/** A namespace of the public registry (and an organization name): letters, digits, `-`, `_`. */
const NAMESPACE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,63})$/;
/** A semantic version, as the registry protocol requires: MAJOR.MINOR.PATCH, a pre-release, build metadata. */
const SEMVER =
  /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
const MAX_VERSION = 128;

export const validModuleName = (s: string) => NAME.test(s);
export const validModuleProvider = (s: string) => PROVIDER.test(s);
export const validNamespace = (s: string) => NAMESPACE.test(s);
export const validModuleVersion = (s: string) => s.length <= MAX_VERSION && SEMVER.test(s);

export interface ModuleCreateInput {
  name: string;
  provider: string;
  registryName: RegistryName;
  /** Public modules only (a private module's is its organization's name). */
  namespace: string | null;
  noCode: boolean;
}

const NAME_RULE = 'must be letters, digits, dashes and underscores (at most 64, starting with a letter or digit)';
const PROVIDER_RULE = 'must be lowercase letters and digits (at most 64), e.g. "aws"';

/** The attributes of `POST /organizations/:org/registry-modules` (no VCS: name and provider required). */
export function parseModuleCreate(attributes: Record<string, unknown>, organization: string): ModuleCreateInput {
  const problems = new Problems();
  const text = (member: string, label: string, ok: (s: string) => boolean, rule: string): string => {
    const v = attributes[member];
    const pointer = `/data/attributes/${member}`;
    if (v === undefined || v === null || v === '') problems.add(pointer, `${label} can't be blank`);
    else if (typeof v !== 'string') problems.add(pointer, `${label} must be a string`);
    else if (!ok(v)) problems.add(pointer, `${label} ${rule}`);
    else return v;
    return '';
  };
  if (attributes['vcs-repo'] !== undefined && attributes['vcs-repo'] !== null)
    problems.add('/data/attributes/vcs-repo', 'berth publishes modules without VCS: upload each version instead');
  const name = text('name', 'Name', validModuleName, NAME_RULE);
  const provider = text('provider', 'Provider', validModuleProvider, PROVIDER_RULE);
  const rn = attributes['registry-name'];
  let registryName: RegistryName = 'private';
  if (rn !== undefined && rn !== null && rn !== '') {
    if (typeof rn !== 'string' || !(REGISTRY_NAMES as readonly string[]).includes(rn))
      problems.add('/data/attributes/registry-name', 'Registry name must be "private" or "public"');
    else registryName = rn as RegistryName;
  }
  const ns = attributes.namespace;
  let namespace: string | null = null;
  if (ns !== undefined && ns !== null && ns !== '') {
    if (typeof ns !== 'string' || !validNamespace(ns))
      problems.add('/data/attributes/namespace', `Namespace ${NAME_RULE}`);
    else namespace = ns;
  }
  if (registryName === 'public' && namespace === null)
    problems.add('/data/attributes/namespace', "Namespace can't be blank for a public module");
  // A private module's namespace is its organization: another one is refused, as HCP does.
  if (registryName === 'private' && namespace !== null && namespace !== organization)
    problems.add(
      '/data/attributes/namespace',
      `a private module's namespace is its organization's name (${organization})`,
    );
  const noCode = attributes['no-code'];
  if (noCode !== undefined && noCode !== null && typeof noCode !== 'boolean')
    problems.add('/data/attributes/no-code', 'No-code must be a boolean');
  problems.throwIfAny();
  return {
    name,
    provider,
    registryName,
    namespace: registryName === 'public' ? namespace : null,
    noCode: noCode === true,
  };
}

/** The attributes of `PATCH` on a module: `no-code` only (`vcs-repo` and `test-config` need VCS). */
export function parseModuleUpdate(attributes: Record<string, unknown>): { noCode?: boolean } {
  const problems = new Problems();
  for (const member of ['vcs-repo', 'test-config'])
    if (attributes[member] !== undefined && attributes[member] !== null)
      problems.add(`/data/attributes/${member}`, `berth's registry has no VCS: ${member} cannot be set`);
  const noCode = attributes['no-code'];
  if (noCode !== undefined && noCode !== null && typeof noCode !== 'boolean')
    problems.add('/data/attributes/no-code', 'No-code must be a boolean');
  problems.throwIfAny();
  return typeof noCode === 'boolean' ? { noCode } : {};
}

/** The attributes of a version's create: `version`, a semantic version (`commit-sha` needs VCS). */
export function parseVersionCreate(attributes: Record<string, unknown>): string {
  const problems = new Problems();
  const v = attributes.version;
  if (v === undefined || v === null || v === '') problems.add('/data/attributes/version', "Version can't be blank");
  else if (typeof v !== 'string') problems.add('/data/attributes/version', 'Version must be a string');
  else if (!validModuleVersion(v))
    problems.add('/data/attributes/version', 'Version must be a semantic version (MAJOR.MINOR.PATCH), e.g. "1.2.3"');
  if (attributes['commit-sha'] !== undefined && attributes['commit-sha'] !== null)
    problems.add('/data/attributes/commit-sha', "berth's registry has no VCS: upload the version's archive instead");
  problems.throwIfAny();
  return v as string;
}

function semverParts(v: string): { nums: number[]; pre: string[] } {
  const m = SEMVER.exec(v);
  if (!m) return { nums: [0, 0, 0], pre: [] };
  return { nums: [Number(m[1]), Number(m[2]), Number(m[3])], pre: m[4] ? m[4].split('.') : [] };
}

/** Orders versions by semantic version precedence (build metadata ignored); for sort(), newest last. */
export function compareVersions(a: string, b: string): number {
  const x = semverParts(a);
  const y = semverParts(b);
  for (let i = 0; i < 3; i++) if (x.nums[i] !== y.nums[i]) return x.nums[i] - y.nums[i];
  if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) - Number(q);
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** Whether `data` starts like a gzip stream (a tar.gz archive). */
export function looksGzipped(data: Uint8Array): boolean {
  return data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
}
