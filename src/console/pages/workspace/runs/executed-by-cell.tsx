import type { ExecutedBy } from '../../../jsonapi.js';

/** Where a run executed: `serve` (the instance's name in its tooltip) or the agent's name; blank until claimed. */
export function ExecutedByCell({ by }: { by: ExecutedBy | null | undefined }) {
  if (!by) return <span class="muted">—</span>;
  if (by.kind === 'serve')
    return (
      <span title={by.name ? `berth serve: ${by.name}` : 'berth serve'} data-kind="serve">
        serve
      </span>
    );
  return (
    <span title={`agent ${by['agent-id'] ?? by.name ?? ''}`} data-kind="agent">
      agent {by.name}
    </span>
  );
}
