import { useState } from 'preact/hooks';
import type { Resource, RunAttributes } from '../../../jsonapi.js';
import { PhaseLog } from './phase-log.js';
import { RunActionConfirm, type RunAction } from './run-action-confirm.js';
import { actionsOf } from './run-format.js';

/** The selected run: its status, its actions (each confirmed in the page), and its live logs. */
export function RunDetail({ run, reload }: { run: Resource<RunAttributes>; reload: () => void }) {
  const [asking, setAsking] = useState<RunAction | null>(null);
  const actions = actionsOf(run);
  const offered: [RunAction, boolean | undefined, string][] = [
    ['apply', actions['is-confirmable'], 'Apply'],
    ['discard', actions['is-discardable'], 'Discard'],
    ['cancel', actions['is-cancelable'], 'Cancel'],
  ];
  // An action no longer offered (the run moved on) closes its confirmation.
  const open = asking && offered.some(([a, ok]) => a === asking && ok) ? asking : null;
  const applyStarted = Boolean(
    run.attributes['status-timestamps']?.['applying-at'] || run.attributes['status-timestamps']?.['apply-queued-at'],
  );
  const a = run.attributes as RunAttributes & { 'is-destroy'?: boolean; 'plan-only'?: boolean };
  return (
    <div data-testid="run-detail" data-run-id={run.id}>
      <p>
        <strong>{run.id}</strong>{' '}
        <span class={`badge ${a.status}`} data-testid="run-detail-status">
          {a.status}
        </span>{' '}
        {a['is-destroy'] && (
          <span class="badge locked" data-testid="run-detail-destroy">
            destroy
          </span>
        )}{' '}
        {a['plan-only'] && (
          <span class="badge" data-testid="run-detail-plan-only">
            plan only
          </span>
        )}{' '}
        {!open && (
          <span class="run-actions">
            {offered.map(([action, ok, label]) =>
              ok ? (
                <button
                  key={action}
                  type="button"
                  class={action === 'apply' ? 'primary' : ''}
                  onClick={() => setAsking(action)}
                  data-testid={`run-${action}`}
                >
                  {label}
                </button>
              ) : null,
            )}
          </span>
        )}
      </p>
      {open && (
        <RunActionConfirm
          runId={run.id}
          action={open}
          onDone={() => {
            setAsking(null);
            reload();
          }}
          onClose={() => setAsking(null)}
        />
      )}
      <PhaseLog runId={run.id} phase="plan" />
      {applyStarted && <PhaseLog runId={run.id} phase="apply" />}
    </div>
  );
}
