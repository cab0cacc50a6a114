import { describe, expect, it } from 'vitest';
import { outputChangeLines, outputChanges } from '../../../src/cli/views/state-rollback.js';

const out = (name: string, value: unknown, sensitive = false) => ({
  id: `wsout-${name}`,
  type: 'state-version-outputs',
  attributes: { name, value, sensitive },
});

describe('the outputs a rollback changes', () => {
  it('lists added, changed and removed outputs; equal ones are left out; sensitive values never shown', () => {
    const now = [out('same', 'x'), out('url', 'b'), out('gone', [1, 2]), out('secret', 's1', true), out('shy', 'v')];
    const then = [
      out('same', 'x'),
      out('url', 'a'),
      out('secret', 's2', true),
      out('shy', 'v', true),
      out('new', { k: 1 }),
    ];
    const changes = outputChanges(now, then);
    expect(changes).toEqual([
      { name: 'url', change: 'changed', before: '"b"', after: '"a"' },
      { name: 'secret', change: 'changed', before: '(sensitive)', after: '(sensitive)' },
      { name: 'shy', change: 'changed', before: '"v"', after: '(sensitive)' },
      { name: 'new', change: 'added', before: null, after: '{"k":1}' },
      { name: 'gone', change: 'removed', before: '[1,2]', after: null },
    ]);
    expect(outputChangeLines(changes)).toEqual([
      'Outputs that change:',
      '  ~ url: "b" → "a"',
      '  ~ secret: (sensitive) → (sensitive)',
      '  ~ shy: "v" → (sensitive)',
      '  + new: {"k":1}',
      '  - gone: [1,2] (removed)',
    ]);
    expect(JSON.stringify(changes)).not.toMatch(/s1|s2/);
  });

  it('says so when nothing changes', () => {
    expect(outputChangeLines(outputChanges([out('a', 1)], [out('a', 1)]))).toEqual(['No output changes.']);
  });
});
