import { query } from '../api.js';
import { Age, DataTable, ErrorMessage, Pager, Section } from '../components/common.js';
import type { AgentAttributes, AgentPoolAttributes, Collection, Resource } from '../jsonapi.js';
import { orgPath } from '../router.js';
import { useApi } from '../use-api.js';

const PAGE_SIZE = 20;
const AGENTS_PAGE_SIZE = 20;

/**
 * The agents of an organization: each agent pool (a page of them, oldest first) with its agents, their
 * status and last ping. Members read pools; only those who manage agent pools read their agents
 * (the API answers 404 to others, and the card says so).
 */
export function AgentsPage({ org, query: q }: { org: string; query: URLSearchParams }) {
  const page = q.get('page') ?? undefined;
  const pools = useApi<Collection<AgentPoolAttributes>>(
    `/organizations/${encodeURIComponent(org)}/agent-pools${query({ 'page[number]': page, 'page[size]': PAGE_SIZE })}`,
  );
  const total = pools.data?.meta?.pagination?.['total-count'];
  return (
    <>
      <h1>Agents</h1>
      <p class="muted" data-testid="agent-pools-count">
        {total === undefined ? '\u00a0' : total === 1 ? '1 agent pool' : `${total} agent pools`}
      </p>
      <ErrorMessage message={pools.error} />
      {!pools.data && pools.loading && <div class="card placeholder" aria-busy="true" />}
      {pools.data?.data.length === 0 && (
        <p class="muted" data-testid="empty">
          No agent pool yet: runs of workspaces in <code>agent</code> execution mode are executed by{' '}
          <code>berth agent</code> processes of a pool (<code>berth agent-pool create NAME</code>).
        </p>
      )}
      {pools.data?.data.map((p) => (
        <PoolCard key={p.id} pool={p} />
      ))}
      <Pager pagination={pools.data?.meta?.pagination} path={orgPath(org, 'agents')} params={{}} />
    </>
  );
}

function PoolCard({ pool }: { pool: Resource<AgentPoolAttributes> }) {
  const agents = useApi<Collection<AgentAttributes>>(
    `/agent-pools/${encodeURIComponent(pool.id)}/agents${query({ 'page[size]': AGENTS_PAGE_SIZE })}`,
  );
  const running = pool.attributes['agent-count'];
  const more = agents.data?.meta?.pagination;
  return (
    <div data-testid="agent-pool" data-pool-id={pool.id} data-name={pool.attributes.name}>
      <Section title={pool.attributes.name}>
        <p class="muted" data-testid="agent-pool-summary">
          {running === 1 ? '1 agent running' : `${running} agents running`}
          {pool.attributes['organization-scoped'] ? ' · organization-scoped' : ' · for some workspaces only'} ·{' '}
          {pool.id}
        </p>
        {agents.status === 404 ? (
          <p class="muted" data-testid="agents-hidden">
            Only those who manage the organization&apos;s agent pools see its agents.
          </p>
        ) : (
          <>
            <ErrorMessage message={agents.error} />
            <DataTable
              headings={['Agent', 'Status', 'Last ping', 'Address']}
              loading={agents.loading}
              skeleton={!agents.data && agents.loading}
              skeletonRows={1}
            >
              {agents.data?.data.map((a) => (
                <tr key={a.id} data-testid="agent-row" data-agent-id={a.id}>
                  <td>
                    <span data-testid="agent-name">{a.attributes.name}</span>{' '}
                    {a.attributes.name !== a.id && <span class="muted">{a.id}</span>}
                  </td>
                  <td>
                    <span class={`badge agent-${a.attributes.status}`} data-testid="agent-status">
                      {a.attributes.status}
                    </span>
                  </td>
                  <td data-testid="agent-last-ping">
                    <Age at={a.attributes['last-ping-at']} />
                  </td>
                  <td>{a.attributes['ip-address'] ?? ''}</td>
                </tr>
              ))}
              {agents.data?.data.length === 0 && (
                <tr>
                  <td colSpan={4} class="muted" data-testid="agents-empty">
                    No agent has registered with this pool (start one:{' '}
                    <code>berth agent --server URL --token AGENT_TOKEN</code>).
                  </td>
                </tr>
              )}
            </DataTable>
            {more && more['total-count'] > AGENTS_PAGE_SIZE && (
              <p class="muted">
                The first {AGENTS_PAGE_SIZE} of {more['total-count']} agents, oldest first.
              </p>
            )}
          </>
        )}
      </Section>
    </div>
  );
}
