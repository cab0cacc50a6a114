import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * A text field's value that follows `outside` (the URL: back and forward) and reports what the
 * user types after `ms` of quiet (debounced), so that a list is not asked for at each key.
 */
export function useDebouncedField(outside: string, onSettled: (value: string) => void, ms = 300) {
  const [value, setValue] = useState(outside);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(onSettled);
  latest.current = onSettled;
  // What was typed and not settled yet: read by `flush`, which may run before the render that
  // typing asked for (Enter pressed at once after the text), so never from `value` of a render.
  const typed = useRef<string | null>(null);
  // The URL changed (back, forward, a link, or this field's own last settlement arriving): show it,
  // unless the user has typed since, which settles in its turn and is never thrown away. A layout
  // effect, run as the change renders: a plain effect runs later, after text typed in between.
  useLayoutEffect(() => {
    if (typed.current !== null) return;
    window.clearTimeout(timer.current);
    setValue(outside);
  }, [outside]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const onInput = (next: string) => {
    setValue(next);
    typed.current = next;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      typed.current = null;
      latest.current(next);
    }, ms);
  };
  /** Settles at once (Enter). */
  const flush = () => {
    window.clearTimeout(timer.current);
    const next = typed.current;
    typed.current = null;
    if (next !== null && next !== outside) latest.current(next);
  };
  return { value, onInput, flush };
}
