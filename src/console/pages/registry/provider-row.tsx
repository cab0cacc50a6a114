import { query, seg } from '../../api.js';
import type { Collection, Resource } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';
import {
  newestFirst,
  type ProviderPlatformAttributes,
  type ProviderVersionAttributes,
  type RegistryProviderAttributes,
} from './registry-types.js';
import { SourceSnippet } from './source-snippet.js';

/** The newest versions shown per provider (each asks for its platforms). */
const VERSIONS_SHOWN = 5;

export function ProviderRow({
  org,
  provider: p,
  versions,
}: {
  org: string;
  provider: Resource<RegistryProviderAttributes>;
  versions: Resource<ProviderVersionAttributes>[];
}) {
  const a = p.attributes;
  const sorted = [...versions].sort((x, y) => newestFirst(x.attributes.version, y.attributes.version));
  const shown = sorted.slice(0, VERSIONS_SHOWN);
  const installable = sorted.find((v) => v.attributes['shasums-uploaded'] && v.attributes['shasums-sig-uploaded']);
  const source =
    a['registry-name'] === 'private' ? `${location.host}/${a.namespace}/${a.name}` : `${a.namespace}/${a.name}`;
  return (
    <tr data-testid="provider-row" data-name={a.name}>
      <td>
        <span data-testid="provider-name">{a.name}</span> <span class="muted">{a.namespace}</span>
        {a['registry-name'] === 'public' && <span class="badge">public</span>}
      </td>
      <td>
        {a['registry-name'] === 'public' ? (
          <span class="muted">a public registry&apos;s provider</span>
        ) : shown.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          <ul class="plain">
            {shown.map((v) => (
              <ProviderVersion key={v.id} org={org} provider={a} version={v} />
            ))}
            {sorted.length > shown.length && <li class="muted">and {sorted.length - shown.length} older</li>}
          </ul>
        )}
      </td>
      <td>
        {installable || a['registry-name'] === 'public' ? (
          <SourceSnippet
            source={source}
            version={installable?.attributes.version ?? null}
            what={`provider ${a.name}`}
          />
        ) : (
          <span class="muted">no version to use yet</span>
        )}
      </td>
    </tr>
  );
}

function ProviderVersion({
  org,
  provider,
  version: v,
}: {
  org: string;
  provider: RegistryProviderAttributes;
  version: Resource<ProviderVersionAttributes>;
}) {
  const platforms = useApi<Collection<ProviderPlatformAttributes>>(
    `/organizations/${seg(org)}/registry-providers/private/${seg(provider.namespace)}/${seg(provider.name)}/versions/${seg(v.attributes.version)}/platforms${query({ 'page[size]': 100 })}`,
  );
  const names = (platforms.data?.data ?? [])
    .map(
      (p) =>
        `${p.attributes.os}_${p.attributes.arch}${p.attributes['provider-binary-uploaded'] ? '' : ' (no archive)'}`,
    )
    .sort();
  return (
    <li data-testid="provider-version" data-version={v.attributes.version}>
      <strong>{v.attributes.version}</strong>{' '}
      <span data-testid="provider-platforms">{platforms.data ? names.join(', ') || 'no platform' : '…'}</span>
      {!(v.attributes['shasums-uploaded'] && v.attributes['shasums-sig-uploaded']) && (
        <span class="muted"> (no signed SHA256SUMS)</span>
      )}
    </li>
  );
}
