import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import { survivesUnhandledRejections } from '../../src/cli/last-resort.js';

/** serve's and the agent's last resort: a rejection nothing handled is logged once per message, in one line. */
it('logs each unhandled rejection once, in one line, and stops listening when told', () => {
  const lines: string[] = [];
  const events = new EventEmitter();
  const stop = survivesUnhandledRejections((l) => lines.push(l), events as unknown as NodeJS.Process);
  events.emit('unhandledRejection', new Error('database is locked'));
  events.emit('unhandledRejection', new Error('database is locked'));
  events.emit('unhandledRejection', 'not an error');
  stop();
  events.emit('unhandledRejection', new Error('after the stop'));
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(
    /^berth: a failure nothing handled, logged once \(the process goes on\): Error: database is locked \(at /,
  );
  expect(lines[0]).not.toContain('\n');
  expect(lines[1]).toContain(': not an error');
});
