import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { Age, ErrorMessage, LocalPager, Section, DataTable, TagBinding } from '../components/common.js';
import { lockHolderName } from '../components/lock-holder.js';
import { DurationChart, runDurations } from '../components/run-chart.js';
import { ExecutedRunsCard } from '../components/runs.js';
import { WorkspaceVariablesCard } from '../components/variables.js';
import {
  findIncluded,
  related,
  relatedMany,
  type AuditEventAttributes,
  type Collection,
  type Document,
  type ProjectAttributes,
  type Resource,
  type RunAttributes,
  type SshKeyAttributes,
  type StateVersionAttributes,
  type WorkspaceAttributes,
} from '../jsonapi.js';
import { href, orgPath } from '../router.js';
import { useApi } from '../use-api.js';
import { AuditTable, auditPath } from './audit.js';
import { RunTriggersCard } from './workspace/run-triggers-card.js';
import { useRollback } from './workspace/state-rollback.js';

type Workspace = Document<WorkspaceAttributes>;

/** One workspace: its lock, attributes, tags, runs, state, consumers, SSH key and audit trail. */
export function WorkspacePage({ org, name }: { org: string; name: string }) {
  const doc = useApi<Workspace>(
    `/organizations/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(name)}${query({
      include: 'locked_by,effective_tag_bindings,project',
    })}`,
  );
  const ws = doc.data?.data;
  const project = ws
    ? (findIncluded(doc.data?.included, related(ws, 'project')) as Resource<ProjectAttributes> | undefined)
    : undefined;
  return (
    <>
      <p class="crumbs">
        <a href={`#${orgPath(org, 'workspaces')}`}>Workspaces</a>
        {project && (
          <>
            {' · '}
            <a href={href(orgPath(org, 'workspaces'), { project: project.id })} data-testid="workspace-project">
              {project.attributes.name}
            </a>
          </>
        )}
      </p>
      <h1 data-testid="workspace-name">{name}</h1>
      {ws && <DriftBadge ws={ws} />}
      {ws?.attributes.description && <p data-testid="workspace-description">{ws.attributes.description}</p>}
      <ErrorMessage message={doc.error} />
      {!ws && doc.loading && <div class="card placeholder" aria-busy="true" />}
      {ws && (
        <>
          <div class="grid">
            <LockCard ws={ws} included={doc.data?.included} reload={doc.reload} />
            <AttributesCard org={org} ws={ws} project={project} />
            <TagsCard ws={ws} included={doc.data?.included} />
            <RemoteStateCard ws={ws} />
            <RunTriggersCard org={org} ws={ws} />
            <SshKeyCard ws={ws} />
          </div>
          <WorkspaceVariablesCard workspaceId={ws.id} />
          <ExecutedRunsCard workspaceId={ws.id} />
          <RunsCard ws={ws} />
          <StateVersionsCard ws={ws} onChanged={doc.reload} />
          <WorkspaceAuditCard org={org} ws={ws} />
        </>
      )}
    </>
  );
}

/** What the workspace's current health assessment found (hosted edition): drifted, no drift, or failed. */
function DriftBadge({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const ref = related(ws, 'current-assessment-result');
  const result = useApi<Document<{ drifted: boolean | null; succeeded: boolean | null; 'created-at': string }>>(
    ref ? `/assessment-results/${encodeURIComponent(ref.id)}` : null,
  );
  const a = result.data?.data.attributes;
  if (!a) return null;
  const [label, kind] = !a.succeeded
    ? ['assessment failed', 'locked']
    : a.drifted
      ? ['drifted', 'locked']
      : ['no drift', 'unlocked'];
  return (
    <p>
      <span class={`badge ${kind}`} data-testid="drift" title={`Health assessment of ${a['created-at']}`}>
        {label}
      </span>
    </p>
  );
}

function LockCard({
  ws,
  included,
  reload,
}: {
  ws: Resource<WorkspaceAttributes>;
  included?: Resource[];
  reload: () => void;
}) {
  const a = ws.attributes;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Only the holder may unlock (anyone else gets a 409): the button is offered to the holder
  // alone, and the others who may see it a force unlock.
  const me = useApi<Document<unknown>>(a.locked ? '/account/details' : null);
  const holder = related(ws, 'locked-by');
  const mine = me.data ? holder?.type === me.data.data.type && holder.id === me.data.data.id : me.error !== null; // who we are is unknown: let the API decide
  const act = async (action: 'lock' | 'unlock' | 'force-unlock') => {
    setBusy(true);
    setError(null);
    try {
      await api(`/workspaces/${encodeURIComponent(ws.id)}/actions/${action}`, {
        method: 'POST',
        body: action === 'lock' ? { reason } : undefined,
      });
      setReason('');
      reload();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const p = a.permissions;
  return (
    <Section title="Lock" id="lock">
      {a.locked ? (
        <dl class="attrs">
          <dt>State</dt>
          <dd>
            <span class="badge locked" data-testid="lock-state">
              locked
            </span>
          </dd>
          <dt>Held by</dt>
          <dd data-testid="lock-holder">{lockHolderName(ws, included)}</dd>
          <dt>Reason</dt>
          <dd data-testid="lock-reason">{a['locked-reason'] || <span class="muted">none given</span>}</dd>
          <dt>Since</dt>
          <dd data-testid="lock-age">
            <Age at={a['locked-at']} />
          </dd>
        </dl>
      ) : (
        <p>
          <span class="badge unlocked" data-testid="lock-state">
            unlocked
          </span>
        </p>
      )}
      <div class="actions">
        {!a.locked && p['can-lock'] && (
          <>
            <div>
              <label for="lock-reason">Reason (optional)</label>
              <input
                id="lock-reason"
                value={reason}
                onInput={(e) => setReason(e.currentTarget.value)}
                data-testid="lock-reason"
                autoComplete="off"
              />
            </div>
            <button
              type="button"
              class="primary"
              disabled={busy}
              onClick={() => void act('lock')}
              data-testid="lock-button"
            >
              Lock
            </button>
          </>
        )}
        {a.locked && p['can-unlock'] && mine && (
          <button type="button" disabled={busy} onClick={() => void act('unlock')} data-testid="unlock-button">
            Unlock
          </button>
        )}
        {a.locked && p['can-force-unlock'] && !confirming && (
          <button
            type="button"
            class="danger"
            disabled={busy}
            onClick={() => setConfirming(true)}
            data-testid="force-unlock-button"
          >
            Force unlock
          </button>
        )}
      </div>
      {a.locked && confirming && (
        <div class="confirm" role="group" aria-label="confirm force unlock">
          <p>Force-unlock {a.name}? Its holder may still be writing state.</p>
          <div class="actions">
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={() => void act('force-unlock').then(() => setConfirming(false))}
              data-testid="confirm"
              autoFocus
            >
              Force unlock now
            </button>
            <button type="button" onClick={() => setConfirming(false)} data-testid="cancel">
              Cancel
            </button>
          </div>
        </div>
      )}
      <ErrorMessage message={error} />
    </Section>
  );
}

function AttributesCard({
  org,
  ws,
  project,
}: {
  org: string;
  ws: Resource<WorkspaceAttributes>;
  project?: Resource<ProjectAttributes>;
}) {
  const a = ws.attributes;
  const projectRef = related(ws, 'project');
  return (
    <Section title="Attributes" id="attributes">
      <dl class="attrs">
        <dt>ID</dt>
        <dd>
          <code data-testid="workspace-id">{ws.id}</code>
        </dd>
        <dt>Project</dt>
        <dd>
          {projectRef && (
            <a href={`#${orgPath(org, 'projects', projectRef.id)}`} data-testid="workspace-project-page">
              {project?.attributes.name ?? projectRef.id}
            </a>
          )}
        </dd>
        <dt>Execution mode</dt>
        <dd>{a['execution-mode']}</dd>
        <dt>Terraform version</dt>
        <dd>{a['terraform-version']}</dd>
        <dt>Working directory</dt>
        <dd>{a['working-directory'] || <span class="muted">(root)</span>}</dd>
        <dt>Auto apply</dt>
        <dd>{a['auto-apply'] ? 'yes' : 'no'}</dd>
        <dt>Resources</dt>
        <dd data-testid="workspace-resources">{a['resource-count']}</dd>
        <dt>Created</dt>
        <dd>
          <Age at={a['created-at']} />
        </dd>
        <dt>Latest change</dt>
        <dd>
          <Age at={a['latest-change-at']} />
        </dd>
      </dl>
    </Section>
  );
}

function TagsCard({ ws, included }: { ws: Resource<WorkspaceAttributes>; included?: Resource[] }) {
  const bindings = relatedMany(ws, 'effective-tag-bindings')
    .map((ref) => findIncluded(included, ref))
    .filter((b): b is Resource => b !== undefined) as Resource<{ key: string; value: string }>[];
  return (
    <Section title="Tags" id="tags">
      <h3>Key-value tags</h3>
      <p data-testid="tag-bindings">
        {bindings.length === 0 && <span class="muted">none</span>}
        {bindings.map((b) => (
          <TagBinding
            key={b.id}
            k={b.attributes.key}
            value={b.attributes.value}
            inherited={b.links?.['inherited-from'] !== undefined}
          />
        ))}
      </p>
      <h3>Flat tags</h3>
      <p data-testid="flat-tags">
        {ws.attributes['tag-names'].length === 0 && <span class="muted">none</span>}
        {ws.attributes['tag-names'].map((t) => (
          <span key={t} class="tag" data-testid="flat-tag">
            {t}
          </span>
        ))}
      </p>
    </Section>
  );
}

function RemoteStateCard({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const [page, setPage] = useState(1);
  const global = ws.attributes['global-remote-state'];
  const list = useApi<Collection<WorkspaceAttributes>>(
    global
      ? null
      : `/workspaces/${encodeURIComponent(ws.id)}/relationships/remote-state-consumers${query({
          'page[number]': page,
          'page[size]': 10,
        })}`,
  );
  return (
    <Section title="Remote state consumers" id="remote-state">
      {global ? (
        <p data-testid="remote-state-global">Every workspace of the organization may read this state.</p>
      ) : (
        <>
          <ErrorMessage message={list.error} />
          <ul class="plain" aria-busy={list.loading}>
            {list.data?.data.map((c) => (
              <li key={c.id} data-testid="remote-state-consumer">
                {c.attributes.name}
              </li>
            ))}
            {list.data?.data.length === 0 && <li class="muted">No other workspace may read this state.</li>}
          </ul>
          <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
        </>
      )}
    </Section>
  );
}

function SshKeyCard({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const ref = related(ws, 'ssh-key');
  const key = useApi<Document<SshKeyAttributes>>(ref ? `/ssh-keys/${encodeURIComponent(ref.id)}` : null);
  return (
    <Section title="SSH key" id="ssh-key">
      {!ref && <p class="muted">No SSH key assigned.</p>}
      {ref && (
        <p data-testid="ssh-key-name">
          {key.data?.data.attributes.name ?? ''} <code class="muted">{ref.id}</code>
        </p>
      )}
      <ErrorMessage message={key.error} />
    </Section>
  );
}

function RunsCard({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const runs = useApi<Collection<RunAttributes>>(
    `/workspaces/${encodeURIComponent(ws.id)}/runs${query({ 'page[size]': 30 })}`,
  );
  const durations = runDurations(runs.data?.data ?? []);
  return (
    <Section title="Run metrics (last 30 runs)" id="run-metrics">
      <ErrorMessage message={runs.error} />
      <div class="grid">
        <DurationChart label="Plan" kind="plan" values={durations.map((d) => ({ id: d.id, seconds: d.plan }))} />
        <DurationChart label="Apply" kind="apply" values={durations.map((d) => ({ id: d.id, seconds: d.apply }))} />
      </div>
    </Section>
  );
}

function formatSize(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function StateVersionsCard({ ws, onChanged }: { ws: Resource<WorkspaceAttributes>; onChanged?: () => void }) {
  const [page, setPage] = useState(1);
  const list = useApi<Collection<StateVersionAttributes>>(
    `/workspaces/${encodeURIComponent(ws.id)}/state-versions${query({ 'page[number]': page, 'page[size]': 10 })}`,
  );
  // "Roll back to this version": afterwards the list and the workspace (its current state) are read again.
  const rollback = useRollback(ws, () => {
    list.reload();
    onChanged?.();
  });
  return (
    <Section title="State versions" id="state-versions">
      <ErrorMessage message={list.error} />
      <DataTable
        headings={['Serial', 'Created', 'Resources', 'Size', 'Download', 'Actions']}
        loading={list.loading}
        skeleton={!list.data && list.loading}
        skeletonRows={3}
      >
        {list.data?.data.map((sv) => {
          const a = sv.attributes;
          return (
            <tr key={sv.id} data-testid="state-version-row">
              <td>{a.serial}</td>
              <td>
                <Age at={a['created-at']} />
              </td>
              <td>{a['resource-count'] ?? ''}</td>
              <td>{formatSize(a.size)}</td>
              <td>
                {a['hosted-state-download-url'] ? (
                  <a
                    href={a['hosted-state-download-url']}
                    download={`${ws.attributes.name}-${a.serial}.tfstate`}
                    data-testid="state-download"
                  >
                    state
                  </a>
                ) : (
                  <span class="muted">{a.status}</span>
                )}
              </td>
              <td>{rollback.cell(sv)}</td>
            </tr>
          );
        })}
        {list.data?.data.length === 0 && (
          <tr>
            <td colSpan={6} class="muted" data-testid="empty">
              No state yet.
            </td>
          </tr>
        )}
      </DataTable>
      {rollback.panel}
      <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
    </Section>
  );
}

function WorkspaceAuditCard({ org, ws }: { org: string; ws: Resource<WorkspaceAttributes> }) {
  const [page, setPage] = useState(1);
  const list = useApi<Collection<AuditEventAttributes>>(
    auditPath(org, { workspace: ws.id, page: page === 1 ? undefined : String(page) }, 10),
  );
  return (
    <Section title="Audit trail" id="workspace-audit">
      <p>
        <a href={href(orgPath(org, 'audit'), { workspace: ws.id })}>Open in the organization's audit trail</a>
      </p>
      <ErrorMessage message={list.error} />
      <AuditTable list={list.data} loading={list.loading} rows={3} />
      <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
    </Section>
  );
}
