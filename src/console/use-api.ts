import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, api, isAbort } from './api.js';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** The HTTP status of the error answer (404: not there, or not for this caller), else null. */
  status: number | null;
  loading: boolean;
  reload: () => void;
}

/**
 * A GET of `path` (null: nothing to load), again whenever the path or `again` changes (a value the
 * answer depends on, such as the id of the current state version) or `reload` is called.
 * The previous answer stays shown while the next one loads (no flash of empty content); a request
 * the page no longer needs is aborted.
 */
export function useApi<T>(path: string | null, again?: unknown): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: string | null; status: number | null; loading: boolean }>(
    {
      data: null,
      error: null,
      status: null,
      loading: path !== null,
    },
  );
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    api<T>(path, { signal: controller.signal }).then(
      (data) => setState({ data, error: null, status: null, loading: false }),
      (err: unknown) => {
        if (isAbort(err)) return;
        setState({
          data: null,
          error: (err as Error).message,
          status: err instanceof ApiError ? err.status : null,
          loading: false,
        });
      },
    );
    return () => controller.abort();
  }, [path, tick, again]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}
