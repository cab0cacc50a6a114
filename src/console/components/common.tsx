import type { ComponentChildren } from 'preact';
import type { Pagination } from '../jsonapi.js';
import { href } from '../router.js';

/** An API error, as the API worded it. */
export function ErrorMessage({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="error" role="alert" data-testid="error-message">
      {message}
    </p>
  );
}

/** A time as "3 minutes ago", with the exact time in its tooltip and for screen readers. */
export function Age({ at }: { at: string | null | undefined }) {
  if (!at) return <span class="muted">—</span>;
  return (
    <time dateTime={at} title={new Date(at).toLocaleString()}>
      {ago(at)}
    </time>
  );
}

/** How long ago `at` was, in words (seconds, minutes, hours, days). */
export function ago(at: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

/** A duration in seconds as "1 min 5 s". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return s ? `${m} min ${s} s` : `${m} min`;
}

/** Placeholder rows of a table while it loads, of the height of real rows (no layout shift). */
function SkeletonRows({ columns, rows = 5 }: { columns: number; rows?: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, i) => (
        <tr key={i} class="skeleton" aria-hidden="true">
          {Array.from({ length: columns }, (_, j) => (
            <td key={j}>
              <span class="bone" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/**
 * A table of the API's rows: its column headings, rows of fixed height while the first answer
 * loads (`skeleton`: no layout shift), and `aria-busy` while any answer loads.
 */
export function DataTable({
  headings,
  loading,
  skeleton,
  skeletonRows,
  children,
}: {
  headings: string[];
  loading: boolean;
  skeleton: boolean;
  skeletonRows?: number;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {headings.map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody aria-busy={loading}>
          {skeleton && <SkeletonRows columns={headings.length} rows={skeletonRows} />}
          {children}
        </tbody>
      </table>
    </div>
  );
}

/** Previous / next links under a list, from the API's pagination meta. */
export function Pager({
  pagination,
  path,
  params,
}: {
  pagination: Pagination | undefined;
  path: string;
  params: Record<string, string | undefined>;
}) {
  if (!pagination) return <nav class="pager" aria-label="pages" />;
  const to = (page: number) => href(path, { ...params, page: page === 1 ? undefined : String(page) });
  const prev = pagination['prev-page'];
  const next = pagination['next-page'];
  return (
    <nav class="pager" aria-label="pages">
      {prev ? (
        <a href={to(prev)} data-testid="page-prev" rel="prev">
          ← Previous
        </a>
      ) : (
        <span class="disabled">← Previous</span>
      )}
      <span data-testid="page-info">
        page {pagination['current-page']} of {Math.max(1, pagination['total-pages'])} · {pagination['total-count']} in
        all
      </span>
      {next ? (
        <a href={to(next)} data-testid="page-next" rel="next">
          Next →
        </a>
      ) : (
        <span class="disabled">Next →</span>
      )}
    </nav>
  );
}

/** Previous / next buttons for a list inside a page (its page is not in the URL). */
export function LocalPager({
  pagination,
  setPage,
}: {
  pagination: Pagination | undefined;
  setPage: (page: number) => void;
}) {
  if (!pagination || pagination['total-pages'] <= 1) return null;
  const prev = pagination['prev-page'];
  const next = pagination['next-page'];
  return (
    <nav class="pager" aria-label="pages">
      <button type="button" disabled={!prev} onClick={() => prev && setPage(prev)}>
        ← Previous
      </button>
      <span>
        page {pagination['current-page']} of {pagination['total-pages']}
      </span>
      <button type="button" disabled={!next} onClick={() => next && setPage(next)}>
        Next →
      </button>
    </nav>
  );
}

/** A section of a page with its heading. */
export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return (
    <section class="card" aria-labelledby={id ? `${id}-title` : undefined} data-testid={id}>
      <h2 id={id ? `${id}-title` : undefined}>{title}</h2>
      {children}
    </section>
  );
}

/** A tag binding `key: value` (inherited ones marked). */
export function TagBinding({ k, value, inherited }: { k: string; value: string; inherited?: boolean }) {
  return (
    <span
      class={inherited ? 'tag inherited' : 'tag'}
      data-testid="tag-binding"
      title={inherited ? 'inherited from the project' : 'own'}
    >
      {value === '' ? k : `${k}: ${value}`}
      {inherited ? ' ↑' : ''}
    </span>
  );
}
