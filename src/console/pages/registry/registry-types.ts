/** The registry's resources as the console reads them (api/routes/registry/*.ts serialize them). */

export interface RegistryModuleAttributes {
  name: string;
  namespace: string;
  provider: string;
  'registry-name': 'private' | 'public';
  status: string;
  /** Newest semantic version first. */
  'version-statuses': { version: string; status: string }[];
}

export interface RegistryProviderAttributes {
  name: string;
  namespace: string;
  'registry-name': 'private' | 'public';
}

export interface ProviderVersionAttributes {
  version: string;
  'key-id': string;
  protocols: string[];
  'shasums-uploaded': boolean;
  'shasums-sig-uploaded': boolean;
}

export interface ProviderPlatformAttributes {
  os: string;
  arch: string;
  'provider-binary-uploaded': boolean;
}

/** Orders versions as semantic versioning does, newest first (pre-releases after their release). */
export function newestFirst(a: string, b: string): number {
  const parts = (v: string) => {
    const [core, pre] = v.split('+')[0].split(/-(.*)/s);
    return { nums: core.split('.').map(Number), pre: pre ?? null };
  };
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < 3; i++) if (x.nums[i] !== y.nums[i]) return (y.nums[i] ?? 0) - (x.nums[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return -1;
  if (y.pre === null) return 1;
  return x.pre < y.pre ? 1 : -1;
}
