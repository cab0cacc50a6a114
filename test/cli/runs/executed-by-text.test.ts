import { describe, expect, it } from 'vitest';
import type { Resource } from '../../../src/client/jsonapi.js';
import type { RunAttributes } from '../../../src/client/resources.js';
import { executedByText } from '../../../src/cli/views/run.js';

/** `berth run show`'s "Executed by" line, from the run's `executed-by` as the caller may see it. */
describe('executedByText', () => {
  const run = (executedBy: unknown) =>
    ({ id: 'run-x', type: 'runs', attributes: { 'executed-by': executedBy } }) as unknown as Resource<RunAttributes>;
  const serve = (name: string | null) => ({ kind: 'serve', name, 'agent-id': null, 'agent-pool-id': null });

  it("names serve's executor to site administrators, and says only serve to everyone else (issue 43)", () => {
    expect(executedByText(run(serve('serve-host-1-0a0b0c0d')))).toBe('berth serve (serve-host-1-0a0b0c0d)');
    expect(executedByText(run(serve(null)))).toBe('berth serve');
  });

  it('names an agent and its pool; no executor yet while none claimed the run', () => {
    const agent = {
      kind: 'agent',
      name: 'builder-1',
      'agent-id': 'agent-AAAAAAAAAAAAAAAA',
      'agent-pool-id': 'apool-B',
    };
    expect(executedByText(run(agent), 'builders')).toBe('agent builder-1 (agent-AAAAAAAAAAAAAAAA) of pool builders');
    expect(executedByText(run(null))).toBe('no executor yet');
  });
});
