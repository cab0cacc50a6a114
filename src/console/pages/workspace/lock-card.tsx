import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { Age, ErrorMessage, Section } from '../../components/common.js';
import { lockHolderName } from '../../components/lock-holder.js';
import { related, type Document, type Resource, type WorkspaceAttributes } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';
import { ForceUnlockConfirm } from './force-unlock-confirm.js';

/** The workspace's lock: who holds it, why, since when; Lock, Unlock and Force unlock as permitted. */
export function LockCard({
  org,
  ws,
  included,
  reload,
}: {
  org: string;
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
        <ForceUnlockConfirm
          org={org}
          ws={ws}
          busy={busy}
          onConfirm={() => void act('force-unlock').then(() => setConfirming(false))}
          onCancel={() => setConfirming(false)}
        />
      )}
      <ErrorMessage message={error} />
    </Section>
  );
}
