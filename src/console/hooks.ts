import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A text field's value that follows `outside` (the URL: back and forward) and reports what the
 * user types after `ms` of quiet (debounced), so that a list is not asked for at each key.
 */
export function useDebouncedField(outside: string, onSettled: (value: string) => void, ms = 300) {
  const [value, setValue] = useState(outside);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(onSettled);
  latest.current = onSettled;
  useEffect(() => {
    window.clearTimeout(timer.current);
    setValue(outside);
  }, [outside]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const onInput = (next: string) => {
    setValue(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => latest.current(next), ms);
  };
  /** Settles at once (Enter). */
  const flush = () => {
    window.clearTimeout(timer.current);
    if (value !== outside) latest.current(value);
  };
  return { value, onInput, flush };
}
