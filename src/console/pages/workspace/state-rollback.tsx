import { useState } from 'preact/hooks';
import { api, query } from '../../api.js';
import { ErrorMessage } from '../../components/common.js';
import { related, type Collection, type Document, type Resource, type WorkspaceAttributes } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';

interface OutputAttributes {
  name: string;
  sensitive: boolean;
  value: unknown;
}

/** An output a rollback changes; the values as shown (JSON; sensitive ones masked, never shown). */
export interface OutputChange {
  name: string;
  change: 'added' | 'removed' | 'changed';
  before: string | null;
  after: string | null;
}

const MASK = '(sensitive)';
const shown = (o: Resource<OutputAttributes>) => (o.attributes.sensitive ? MASK : JSON.stringify(o.attributes.value));

/** The outputs that differ between the current state's and the target version's: the target's order, then those it loses. */
export function outputChanges(now: Resource<OutputAttributes>[], then: Resource<OutputAttributes>[]): OutputChange[] {
  const before = new Map(now.map((o) => [o.attributes.name, o]));
  const after = new Map(then.map((o) => [o.attributes.name, o]));
  const changes: OutputChange[] = [];
  for (const [name, o] of after) {
    const b = before.get(name);
    if (!b) changes.push({ name, change: 'added', before: null, after: shown(o) });
    else if (
      b.attributes.sensitive !== o.attributes.sensitive ||
      JSON.stringify(b.attributes.value) !== JSON.stringify(o.attributes.value)
    )
      changes.push({ name, change: 'changed', before: shown(b), after: shown(o) });
  }
  for (const [name, o] of before)
    if (!after.has(name)) changes.push({ name, change: 'removed', before: shown(o), after: null });
  return changes;
}

/**
 * What the console does about the lock: `lock` (the workspace is unlocked: lock it for the
 * rollback and unlock it after, so the new version is current), `held` (the caller holds it: roll
 * back under it, the version becomes current at their unlock), `other` (someone else holds it:
 * nothing can be done until it is released). `me` is the account's resource (null: not known yet).
 */
export function lockPlan(
  ws: Resource<WorkspaceAttributes>,
  me: { type: string; id: string } | null,
): 'lock' | 'held' | 'other' {
  if (!ws.attributes.locked) return 'lock';
  const holder = related(ws, 'locked-by');
  return holder && me && holder.type === me.type && holder.id === me.id ? 'held' : 'other';
}

/** Whether the row's version can be rolled back to: the caller may write the state, it holds its state, it is not current. */
export function mayRollBack(
  ws: Resource<WorkspaceAttributes>,
  sv: Resource<{ status: string; current?: boolean }>,
): boolean {
  const permissions = ws.attributes.permissions as unknown as Record<string, boolean | undefined>;
  return (
    permissions['can-create-state-versions'] === true && sv.attributes.status === 'finalized' && !sv.attributes.current
  );
}

interface VersionAttributes {
  serial: number;
  status: string;
  current?: boolean;
  'resource-count': number | null;
}

const outputsOf = (id: string) => `/state-versions/${encodeURIComponent(id)}/outputs${query({ 'page[size]': 100 })}`;
const SIGN = { added: '+', removed: '-', changed: '~' } as const;

/**
 * The confirmation of "Roll back to this version", in the page: what changes (serials, resources,
 * outputs, sensitive values masked), what happens to the lock, then PATCH
 * /workspaces/:id/state-versions. An unlocked workspace is locked for it and unlocked after (also
 * when the rollback fails); one the caller holds stays theirs; someone else's lock stops it.
 */
export function RollbackConfirm({
  ws,
  target,
  onCancel,
  onDone,
}: {
  ws: Resource<WorkspaceAttributes>;
  target: Resource<VersionAttributes>;
  onCancel: () => void;
  onDone: (message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The lock as it is now, not as the page last read it: someone may have taken it since.
  const fresh = useApi<Document<WorkspaceAttributes>>(`/workspaces/${encodeURIComponent(ws.id)}`);
  const wsNow = fresh.data?.data;
  const me = useApi<Document<unknown>>(wsNow?.attributes.locked ? '/account/details' : null);
  // The current version (none: 404), then the outputs of both.
  const currentDoc = useApi<Document<VersionAttributes>>(
    `/workspaces/${encodeURIComponent(ws.id)}/current-state-version`,
  );
  const current = currentDoc.data?.data;
  const now = useApi<Collection<OutputAttributes>>(current ? outputsOf(current.id) : null);
  const then = useApi<Collection<OutputAttributes>>(outputsOf(target.id));
  // Who we are unknown (the account could not be read): try under the lock, and let the API decide.
  const plan = !wsNow
    ? null
    : !wsNow.attributes.locked
      ? 'lock'
      : me.error
        ? 'held'
        : me.data
          ? lockPlan(wsNow, me.data.data)
          : null;
  const known = currentDoc.data !== null || currentDoc.status === 404;
  const changes =
    known && then.data && (now.data || !current) ? outputChanges(now.data?.data ?? [], then.data.data) : null;
  const wsPath = `/workspaces/${encodeURIComponent(ws.id)}`;

  const rollBack = async () => {
    setBusy(true);
    setError(null);
    const body = {
      data: {
        type: 'state-versions',
        relationships: { 'rollback-state-version': { data: { type: 'state-versions', id: target.id } } },
      },
    };
    let locked = false;
    try {
      if (plan === 'lock') {
        await api(`${wsPath}/actions/lock`, { method: 'POST', body: { reason: `rollback to ${target.id}` } });
        locked = true;
      }
      const made = await api<Document<{ serial: number }>>(`${wsPath}/state-versions`, { method: 'PATCH', body });
      const sv = made.data;
      if (locked) {
        locked = false;
        await api(`${wsPath}/actions/unlock`, { method: 'POST' });
      }
      onDone(
        `Rolled back to serial ${target.attributes.serial}: new state version ${sv.id}, serial ${sv.attributes.serial}, ` +
          (plan === 'lock' ? 'is current.' : 'becomes current when you unlock the workspace.'),
      );
    } catch (err) {
      setError((err as Error).message);
      if (locked) await api(`${wsPath}/actions/unlock`, { method: 'POST' }).catch(() => undefined);
    } finally {
      setBusy(false);
    }
  };

  const t = target.attributes;
  const problem = (currentDoc.status === 404 ? null : currentDoc.error) ?? now.error ?? then.error;
  return (
    <div class="confirm" role="group" aria-label="confirm state rollback" data-testid="rollback-confirm">
      <p>
        Roll back {ws.attributes.name} to serial {t.serial} (<code>{target.id}</code>)? A new state version
        {current ? ` above serial ${current.attributes.serial}` : ''} gets its content; the versions in between stay in
        the history. Only berth's record of the state changes, not the infrastructure.
      </p>
      {current && current.attributes['resource-count'] !== t['resource-count'] && (
        <p data-testid="rollback-resources">
          Resources: {current.attributes['resource-count']} → {t['resource-count']}
        </p>
      )}
      <ErrorMessage message={problem} />
      {changes === null && !problem && <p class="muted">Comparing the outputs…</p>}
      {changes?.length === 0 && <p data-testid="rollback-no-output-changes">No output changes.</p>}
      {changes && changes.length > 0 && (
        <>
          <p>Outputs that change:</p>
          <ul class="plain" data-testid="rollback-output-changes">
            {changes.map((c) => (
              <li key={c.name} data-testid="rollback-output-change">
                <code>
                  {SIGN[c.change]} {c.name}:{' '}
                  {c.change === 'added'
                    ? c.after
                    : c.change === 'removed'
                      ? `${c.before} (removed)`
                      : `${c.before} → ${c.after}`}
                </code>
              </li>
            ))}
          </ul>
        </>
      )}
      <ErrorMessage message={fresh.error} />
      <p data-testid="rollback-lock">
        {plan === null
          ? 'Reading the lock…'
          : plan === 'lock'
            ? 'The workspace is locked for the rollback and unlocked after, so the new version becomes current.'
            : plan === 'held'
              ? 'You hold the lock: the new version becomes current when you unlock the workspace.'
              : 'Someone else holds the lock: a rollback needs the workspace unlocked, or locked by you.'}
      </p>
      <div class="actions">
        <button
          type="button"
          class="danger"
          disabled={busy || plan === null || plan === 'other'}
          onClick={() => void rollBack()}
          data-testid="rollback-now"
          autoFocus
        >
          Roll back now
        </button>
        <button type="button" onClick={onCancel} data-testid="rollback-cancel">
          Cancel
        </button>
      </div>
      <ErrorMessage message={error} />
    </div>
  );
}

/**
 * "Roll back to this version" for a state version list: `cell(sv)` is a row's action (for a
 * version the caller may roll back to; "current" on the current one), `panel` the confirmation of
 * the one chosen and, once done, what happened. `onChanged` is called after a rollback (the
 * workspace's current state may have changed).
 */
export function useRollback(ws: Resource<WorkspaceAttributes>, onChanged: () => void) {
  const [target, setTarget] = useState<Resource<VersionAttributes> | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const cell = (sv: Resource<VersionAttributes>) =>
    sv.attributes.current ? (
      <span class="badge unlocked" data-testid="state-current">
        current
      </span>
    ) : mayRollBack(ws, sv) ? (
      <button
        type="button"
        disabled={target !== null}
        onClick={() => {
          setDone(null);
          setTarget(sv);
        }}
        data-testid="state-rollback"
      >
        Roll back to this version
      </button>
    ) : null;
  const panel = (
    <>
      {target && (
        <RollbackConfirm
          key={target.id}
          ws={ws}
          target={target}
          onCancel={() => setTarget(null)}
          onDone={(message) => {
            setTarget(null);
            setDone(message);
            onChanged();
          }}
        />
      )}
      {done && (
        <p role="status" data-testid="rollback-done">
          {done}
        </p>
      )}
    </>
  );
  return { cell, panel };
}
