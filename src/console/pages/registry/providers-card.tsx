import { useState } from 'preact/hooks';
import { query, seg } from '../../api.js';
import { DataTable, ErrorMessage, LocalPager, Section } from '../../components/common.js';
import { findIncluded, relatedMany, type Collection } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';
import { ProviderRow } from './provider-row.js';
import type { ProviderVersionAttributes, RegistryProviderAttributes } from './registry-types.js';

const PAGE_SIZE = 20;

/** The organization's providers, 20 a page, oldest first, with their versions (included) and platforms. */
export function ProvidersCard({ org }: { org: string }) {
  const [page, setPage] = useState(1);
  const providers = useApi<Collection<RegistryProviderAttributes>>(
    `/organizations/${seg(org)}/registry-providers${query({
      include: 'registry-provider-versions',
      'page[number]': page,
      'page[size]': PAGE_SIZE,
    })}`,
  );
  const included = providers.data?.included;
  return (
    <Section title="Providers" id="registry-providers">
      <ErrorMessage message={providers.error} />
      <DataTable
        headings={['Provider', 'Versions and platforms', 'Use it']}
        loading={providers.loading}
        skeleton={!providers.data && providers.loading}
        skeletonRows={2}
      >
        {providers.data?.data.map((p) => (
          <ProviderRow
            key={p.id}
            org={org}
            provider={p}
            versions={relatedMany(p, 'registry-provider-versions').flatMap((ref) => {
              const v = findIncluded(included, ref);
              return v ? [v as typeof v & { attributes: ProviderVersionAttributes }] : [];
            })}
          />
        ))}
        {providers.data?.data.length === 0 && (
          <tr>
            <td colSpan={3} class="muted" data-testid="providers-empty">
              No provider yet: publish a release with <code>berth provider publish DIR</code>.
            </td>
          </tr>
        )}
      </DataTable>
      <LocalPager pagination={providers.data?.meta?.pagination} setPage={setPage} />
    </Section>
  );
}
