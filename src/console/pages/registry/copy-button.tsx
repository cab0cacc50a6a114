import { useState } from 'preact/hooks';

/**
 * Copies `text` to the clipboard (where the browser allows it: a secure context); says so for two
 * seconds. Where it cannot, the text stays selectable beside it.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  if (!navigator.clipboard) return null;
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <button
      type="button"
      class="copy"
      aria-label={label}
      data-testid="copy-source"
      onClick={() => void copy().then(() => setTimeout(() => setState('idle'), 2000))}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : 'Copy'}
    </button>
  );
}
