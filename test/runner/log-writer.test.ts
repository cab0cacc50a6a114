import { describe, expect, it } from 'vitest';
import { conflict, notFound } from '../../src/domain/common/errors.js';
import { AgentProtocolError } from '../../src/runner/http-port.js';
import { LogWriter, type LogFailure } from '../../src/runner/log-writer.js';
import { portFailureOf } from '../../src/runner/port-errors.js';
import type { RunnerPort } from '../../src/runner/port.js';

/**
 * The log writer's answers to a write berth refuses, against a port whose `appendLog` fails as the
 * test says: tried again while the failure is transient (the bytes kept in order), ended when the
 * run is gone or berth refuses for good; never a rejection left to end the process.
 */

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
const foreignKey = () =>
  Object.assign(new Error('FOREIGN KEY constraint failed'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });

/** A port whose log writes fail with `failures` first (one each), then succeed; what it stored. */
function flakyPort(failures: (() => Error)[]) {
  const stored: string[] = [];
  const tries: string[] = [];
  const port = {
    appendLog: (_runId: string, _phase: string, chunk: Buffer) => {
      tries.push(chunk.toString());
      const failure = failures.shift();
      if (failure) return Promise.reject(failure());
      stored.push(chunk.toString());
      return Promise.resolve();
    },
  } as unknown as RunnerPort;
  return { port, stored, tries };
}

const instant = { wait: () => Promise.resolve() };

describe('the log writer', () => {
  it('tries a write refused for now again, the bytes written since after it, and tells it once', async () => {
    const { port, stored } = flakyPort([busy, busy, busy]);
    const lines: string[] = [];
    const log = new LogWriter(port, 'run-1', 'plan', { ...instant, log: (l) => lines.push(l) });
    log.write('one\n');
    log.write('two\n');
    log.write('three\n');
    await log.flush();
    expect(stored.join('')).toBe('one\ntwo\nthree\n');
    expect(log.failure).toBeNull();
    expect(lines).toEqual(['writing its log failed for now (database is locked): trying again']);
  });

  it('ends when the run is gone: the listeners hear it, later writes are dropped', async () => {
    const { port, stored, tries } = flakyPort([foreignKey]);
    const log = new LogWriter(port, 'run-1', 'plan', instant);
    const heard: LogFailure[] = [];
    log.onFailure((f) => heard.push(f));
    log.write('one\n');
    await expect.poll(() => heard.length).toBe(1);
    log.write('two\n');
    await log.flush();
    expect(heard).toEqual([{ kind: 'vanished', reason: 'FOREIGN KEY constraint failed' }]);
    expect(tries).toEqual(['one\n']);
    expect(stored).toEqual([]);
    // A listener that comes late hears it at once.
    let late: LogFailure | null = null;
    log.onFailure((f) => (late = f));
    expect(late).toEqual(heard[0]);
  });

  it('ends on a refusal for good, and tries once more at the end with the reason', async () => {
    const refused = () => new AgentProtocolError(500, 'POST /api/agent/runs/run-1/logs/plan: 500 boom');
    const { port, stored } = flakyPort([refused]);
    const log = new LogWriter(port, 'run-1', 'plan', instant);
    log.write('one\n');
    await expect.poll(() => log.failure?.kind).toBe('failed');
    log.write('two\n');
    await log.flush();
    expect(stored).toEqual([
      'one\ntwo\n\n[berth: the log could not be written from here on: POST /api/agent/runs/run-1/logs/plan: 500 boom]\n',
    ]);
  });

  it('gives a transient failure up after its retries: the phase fails, nothing rejects', async () => {
    const { port, tries } = flakyPort(Array.from({ length: 20 }, () => busy));
    const log = new LogWriter(port, 'run-1', 'plan', { ...instant, retries: 3 });
    log.write('one\n');
    await log.flush();
    expect(log.failure).toEqual({ kind: 'failed', reason: 'database is locked' });
    // Four tries of the chunk, then the last one with the reason.
    expect(tries).toHaveLength(5);
  });
});

describe('what a failed port call means', () => {
  it.each([
    [busy(), 'transient'],
    [Object.assign(new Error('x'), { code: '57P01' }), 'transient'],
    [new AgentProtocolError(503, 'unavailable'), 'transient'],
    [new AgentProtocolError(429, 'slow down'), 'transient'],
    [Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }), 'transient'],
    [foreignKey(), 'vanished'],
    [Object.assign(new Error('x'), { code: '23503' }), 'vanished'],
    [new AgentProtocolError(404, 'run not found'), 'vanished'],
    [new AgentProtocolError(409, 'register again'), 'vanished'],
    [notFound('run'), 'vanished'],
    [conflict('not planning'), 'vanished'],
    [new AgentProtocolError(413, 'too large'), 'failed'],
    [new Error('a bug'), 'failed'],
  ])('%s: %s', (err, kind) => {
    expect(portFailureOf(err)).toBe(kind);
  });
});
