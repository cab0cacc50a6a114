import type { Resource, RunAttributes } from '../jsonapi.js';
import { duration } from './common.js';

/** Seconds between two timestamps of a run, or null when either is missing. */
function between(t: Record<string, string>, from: string, ...to: string[]): number | null {
  const start = t[from];
  const end = to.map((k) => t[k]).find((v) => v !== undefined);
  if (!start || !end) return null;
  const s = (Date.parse(end) - Date.parse(start)) / 1000;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

/** The plan and apply durations of runs, oldest first (null where the phase did not finish). */
export function runDurations(
  runs: Resource<RunAttributes>[],
): { id: string; plan: number | null; apply: number | null }[] {
  return [...runs]
    .sort((a, b) => Date.parse(a.attributes['created-at']) - Date.parse(b.attributes['created-at']))
    .map((r) => {
      const t = r.attributes['status-timestamps'] ?? {};
      return {
        id: r.id,
        plan: between(t, 'planning-at', 'planned-at'),
        apply: between(t, 'applying-at', 'applied-at', 'apply-finished-at'),
      };
    });
}

const WIDTH = 300;
const HEIGHT = 80;

/**
 * A small bar chart of durations (inline SVG, no chart library, no inline style: the CSP allows
 * none), one bar per run, oldest on the left; each bar's title tells its run and duration.
 */
export function DurationChart({
  label,
  kind,
  values,
}: {
  label: string;
  kind: 'plan' | 'apply';
  values: { id: string; seconds: number | null }[];
}) {
  const max = Math.max(1, ...values.map((v) => v.seconds ?? 0));
  const slot = WIDTH / Math.max(values.length, 30);
  const measured = values.filter((v) => v.seconds !== null);
  const avg = measured.length ? measured.reduce((s, v) => s + v.seconds!, 0) / measured.length : null;
  if (measured.length === 0)
    return (
      <figure class="chart-figure">
        <div class="chart chart-empty" data-testid={`run-chart-${kind}`}>
          No finished {kind} among the last runs.
        </div>
        <figcaption class="legend">
          <span class={`${kind}-key`}>■</span> {label}
        </figcaption>
      </figure>
    );
  return (
    <figure class="chart-figure">
      <svg
        class="chart"
        viewBox={`0 0 ${WIDTH} ${HEIGHT + 2}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`${label}: ${measured.length} runs${avg === null ? '' : `, average ${duration(avg)}`}`}
        data-testid={`run-chart-${kind}`}
      >
        <line class="axis" x1="0" y1={HEIGHT + 1} x2={WIDTH} y2={HEIGHT + 1} />
        {values.map((v, i) =>
          v.seconds === null ? null : (
            <rect
              key={v.id}
              class={kind}
              x={i * slot + slot * 0.15}
              width={slot * 0.7}
              y={HEIGHT - Math.max(1, (v.seconds / max) * HEIGHT)}
              height={Math.max(1, (v.seconds / max) * HEIGHT)}
              data-testid="run-bar"
            >
              <title>{`${v.id}: ${duration(v.seconds)}`}</title>
            </rect>
          ),
        )}
      </svg>
      <figcaption class="legend">
        <span class={`${kind}-key`}>■</span> {label}
        {avg !== null && `, average ${duration(avg)}, longest ${duration(max)}`}
      </figcaption>
    </figure>
  );
}
