import { query, seg } from '../../api.js';
import { DataTable, ErrorMessage, LocalPager, Section } from '../../components/common.js';
import type { Collection, Resource } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';
import { useState } from 'preact/hooks';
import type { RegistryModuleAttributes } from './registry-types.js';
import { SourceSnippet } from './source-snippet.js';

const PAGE_SIZE = 20;

/** The organization's modules, 20 a page in creation order: their versions, status and the source to copy. */
export function ModulesCard({ org }: { org: string }) {
  const [page, setPage] = useState(1);
  const modules = useApi<Collection<RegistryModuleAttributes>>(
    `/organizations/${seg(org)}/registry-modules${query({ 'page[number]': page, 'page[size]': PAGE_SIZE })}`,
  );
  return (
    <Section title="Modules" id="registry-modules">
      <ErrorMessage message={modules.error} />
      <DataTable
        headings={['Module', 'Versions', 'Status', 'Use it']}
        loading={modules.loading}
        skeleton={!modules.data && modules.loading}
        skeletonRows={2}
      >
        {modules.data?.data.map((m) => (
          <ModuleRow key={m.id} module={m} />
        ))}
        {modules.data?.data.length === 0 && (
          <tr>
            <td colSpan={4} class="muted" data-testid="modules-empty">
              No module yet: publish one with <code>berth module publish NAME/PROVIDER VERSION --directory DIR</code>.
            </td>
          </tr>
        )}
      </DataTable>
      <LocalPager pagination={modules.data?.meta?.pagination} setPage={setPage} />
    </Section>
  );
}

function ModuleRow({ module: m }: { module: Resource<RegistryModuleAttributes> }) {
  const a = m.attributes;
  const versions = a['version-statuses'] ?? [];
  const newest = versions.find((v) => v.status === 'ok')?.version ?? null;
  const source =
    a['registry-name'] === 'private'
      ? `${location.host}/${a.namespace}/${a.name}/${a.provider}`
      : `${a.namespace}/${a.name}/${a.provider}`;
  return (
    <tr data-testid="module-row" data-name={`${a.name}/${a.provider}`}>
      <td>
        <span data-testid="module-name">{a.name}</span> <span class="muted">{a.provider}</span>
      </td>
      <td data-testid="module-versions">
        {versions.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          versions.map((v, i) => (
            <span key={v.version} class={v.status === 'ok' ? undefined : 'muted'}>
              {i > 0 && ', '}
              {v.version}
              {v.status === 'ok' ? '' : ` (${v.status})`}
            </span>
          ))
        )}
      </td>
      <td>
        <span class="badge" data-testid="module-status">
          {a.status}
        </span>
      </td>
      <td>
        {newest || a['registry-name'] === 'public' ? (
          <SourceSnippet source={source} version={newest} what={`module ${a.name}`} />
        ) : (
          <span class="muted">no version to use yet</span>
        )}
      </td>
    </tr>
  );
}
