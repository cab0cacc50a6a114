import { describe, expect, it } from 'vitest';
import { AccessLog, accessRecord } from '../../../src/api/access-log.js';
import { runMoveEntry } from '../../../src/api/run-lifecycle-log.js';
import { levelOfLine, serveLogger } from '../../../src/api/serve-log.js';
import type { RunMove } from '../../../src/services/runs/run-lifecycle.js';
import { TEST_EPOCH } from '../../helpers/clock.js';

// Issue 46, item 5: serve's log formats (--log-format text|json) and levels (--log-level).
describe("serve's log: formats and levels", () => {
  const now = () => new Date(TEST_EPOCH);
  const logged = (options: Parameters<typeof serveLogger>[1]) => {
    const lines: string[] = [];
    return { lines, logger: serveLogger((t) => lines.push(t), { now, ...options }) };
  };
  const move = (status: RunMove['status'], extra: Partial<RunMove> = {}): RunMove => ({
    runId: 'run-aaaaaaaaaaaaaaaa',
    status,
    at: new Date(TEST_EPOCH).toISOString(),
    workspaceId: 'ws-bbbbbbbbbbbbbbbb',
    organization: 'acme',
    claimedBy: null,
    errorMessage: null,
    ...extra,
  });

  it('text: plain lines are written as they are; entries as TIME MSG key=value, quoted when they must be', () => {
    const { lines, logger } = logged({});
    logger.line('berth listening on http://127.0.0.1:8080 (self-hosted edition), database /tmp/x.db');
    const { level, msg, fields } = runMoveEntry(move('errored', { errorMessage: 'The workspace asks for "1.5.0"' }));
    logger.entry(level, msg, fields);
    expect(lines).toEqual([
      'berth listening on http://127.0.0.1:8080 (self-hosted edition), database /tmp/x.db',
      '2030-01-15T12:00:00.000Z run errored run=run-aaaaaaaaaaaaaaaa workspace=ws-bbbbbbbbbbbbbbbb organization=acme status=errored error="The workspace asks for \\"1.5.0\\""',
    ]);
  });

  it('json: one object per line, time, level and msg first, then the fields (never over those three)', () => {
    const { lines, logger } = logged({ format: 'json' });
    logger.line('warning: runs execute without a sandbox');
    logger.entry('info', 'run claimed', {
      run: 'run-x',
      msg: 'not this',
      level: 'nor this',
      phase: 'plan',
      none: undefined,
    });
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { time: '2030-01-15T12:00:00.000Z', level: 'warn', msg: 'warning: runs execute without a sandbox' },
      { time: '2030-01-15T12:00:00.000Z', level: 'info', msg: 'run claimed', run: 'run-x', phase: 'plan' },
    ]);
    expect(Object.keys(JSON.parse(lines[1]))).toEqual(['time', 'level', 'msg', 'run', 'phase']);
    // A stack trace stays one line: one object.
    logger.line('unexpected error: Error: boom\n    at x (y.js:1:1)');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2])).toMatchObject({
      level: 'error',
      msg: 'unexpected error: Error: boom\n    at x (y.js:1:1)',
    });
  });

  it('--log-level leaves out what is below it, except what is written always', () => {
    const { lines, logger } = logged({ format: 'json', level: 'warn' });
    logger.line('executing runs with /usr/bin/terraform (Terraform 1.11.4), at most 2 at once');
    logger.line('berth listening on http://127.0.0.1:8080', { always: true });
    logger.entry(runMoveEntry(move('applied')).level, 'run applied');
    logger.entry('info', 'token', { token: 'secret' }, { always: true });
    logger.entry(runMoveEntry(move('errored')).level, 'run errored');
    logger.line('prune failed: disk full');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual([
      'berth listening on http://127.0.0.1:8080',
      'token',
      'run errored',
      'prune failed: disk full',
    ]);
    expect(logger.enabled('info')).toBe(false);
    expect(logger.enabled('error')).toBe(true);
  });

  it('the level of a plain line comes from its words', () => {
    expect(levelOfLine('berth stopped')).toBe('info');
    expect(levelOfLine('warning: listening on 0.0.0.0, beyond loopback, without TLS')).toBe('warn');
    expect(levelOfLine('cannot execute runs: no terraform binary on the PATH')).toBe('warn');
    expect(levelOfLine('executor: the folder of run run-x could not be removed: EBUSY')).toBe('warn');
    expect(levelOfLine('database unavailable: ECONNREFUSED connect')).toBe('error');
    expect(levelOfLine('prune failed: disk full')).toBe('error');
  });

  it('lifecycle entries: the phase of queued and claimed moves, who claimed, and the words of each status', () => {
    expect(runMoveEntry(move('plan_queued'))).toEqual({
      level: 'info',
      msg: 'run queued',
      fields: {
        run: 'run-aaaaaaaaaaaaaaaa',
        workspace: 'ws-bbbbbbbbbbbbbbbb',
        organization: 'acme',
        status: 'plan_queued',
        phase: 'plan',
      },
    });
    expect(runMoveEntry(move('applying', { claimedBy: 'agent-cccccccccccccccc' })).fields).toMatchObject({
      phase: 'apply',
      agent: 'agent-cccccccccccccccc',
    });
    expect(runMoveEntry(move('planning', { claimedBy: 'serve-host-42-0a1b2c3d' })).fields).toMatchObject({
      phase: 'plan',
      executor: 'serve-host-42-0a1b2c3d',
    });
    const words = (
      ['pending', 'planned', 'planned_and_finished', 'applied', 'canceled', 'force_canceled', 'discarded'] as const
    ).map((s) => runMoveEntry(move(s)).msg);
    expect(words).toEqual([
      'run created',
      'run planned',
      'run planned and finished',
      'run applied',
      'run canceled',
      'run force-canceled',
      'run discarded',
    ]);
  });

  it('access lines in json: the request as fields; the text format is unchanged', () => {
    expect(JSON.parse(accessRecord(new Date(TEST_EPOCH), 'GET /api/v2/ping 200 0.4ms 5b0e-1'))).toEqual({
      time: '2030-01-15T12:00:00.000Z',
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/api/v2/ping',
      status: 200,
      duration_ms: 0.4,
      request_id: '5b0e-1',
    });
    const written: string[] = [];
    const text = new AccessLog((t) => written.push(t), { maxDelayMs: 1000, maxLines: 2 }, now);
    text.add('GET /a 200 1.0ms r1');
    text.add('GET /b 404 2.5ms r2');
    const json = new AccessLog((t) => written.push(t), { maxDelayMs: 1000, maxLines: 1 }, now, { format: 'json' });
    json.add('POST /c 201 3.0ms r3');
    const off = new AccessLog((t) => written.push(t), { maxDelayMs: 1000, maxLines: 1 }, now, { off: true });
    off.add('GET /d 200 1.0ms r4');
    off.flush();
    expect(written).toEqual([
      '2030-01-15T12:00:00.000Z GET /a 200 1.0ms r1\n2030-01-15T12:00:00.000Z GET /b 404 2.5ms r2',
      '{"time":"2030-01-15T12:00:00.000Z","level":"info","msg":"request","method":"POST","path":"/c","status":201,"duration_ms":3,"request_id":"r3"}',
    ]);
  });
});
