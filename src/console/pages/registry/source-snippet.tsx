import { CopyButton } from './copy-button.js';

/**
 * The lines of a configuration that use a module or provider of the registry (`source` and
 * `version`), to copy: shown as text (Preact escapes it), with a Copy button.
 */
export function SourceSnippet({ source, version, what }: { source: string; version: string | null; what: string }) {
  const text = version ? `source  = "${source}"\nversion = "${version}"` : `source = "${source}"`;
  return (
    <div class="source-snippet">
      <pre data-testid="source-snippet">
        <code>{text}</code>
      </pre>
      <CopyButton text={text} label={`Copy the source of ${what}`} />
    </div>
  );
}
