import { MAX_LOG_BYTES } from '../domain/runs/run-execution.js';
import { LogScrubber } from './log-scrubber.js';
import { portFailureOf, reasonOf, retryTransient, type RetryOptions } from './port-errors.js';
import type { Phase, RunnerPort } from './port.js';
import { runLogMayHaveGrown } from './wake.js';

/** Why a phase's log can no longer be written: its run is gone (`vanished`), or berth refuses it. */
export interface LogFailure {
  kind: 'vanished' | 'failed';
  reason: string;
}

export interface LogWriterOptions extends Pick<RetryOptions, 'retries' | 'wait'> {
  /** Where the first write that must be tried again is told (the executor's log), once per phase. */
  log?: (line: string) => void;
}

/**
 * Writes a phase's log in order, batching what comes while a write is under way; bounded. A write
 * berth cannot take for now (its database locked, unreachable) is tried again, the bytes written
 * since waiting behind it; one it will never take ends the log (`failure`, told to `onFailure`), and
 * never the process: no write's rejection is left unhandled.
 */
export class LogWriter {
  private pending: Buffer[] = [];
  private written = 0;
  private flushing: Promise<void> = Promise.resolve();
  private cut = false;
  private scrubber = new LogScrubber([]);
  private retried = false;
  private readonly listeners = new Set<(failure: LogFailure) => void>();
  /** Set once the log cannot be written any more. */
  failure: LogFailure | null = null;
  held = Buffer.alloc(0);
  /** The end of what was written (64 KiB), where the plan's summary line is. */
  tail = '';

  constructor(
    private readonly port: RunnerPort,
    private readonly runId: string,
    private readonly phase: Phase,
    private readonly options: LogWriterOptions = {},
  ) {}

  /** From now on, `values` (sensitive variables) are written `(sensitive value)`. */
  conceal(values: string[]) {
    this.scrubber = new LogScrubber(values);
  }

  hold(chunk: Buffer) {
    if (this.held.length < 256 * 1024) this.held = Buffer.concat([this.held, chunk]);
  }

  write(chunk: Buffer | string) {
    if (this.cut || this.failure?.kind === 'vanished') return;
    this.append(this.scrubber.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  }

  /** Calls `listener` when the log fails (at once if it already did); answers how to stop listening. */
  onFailure(listener: (failure: LogFailure) => void): () => void {
    if (this.failure) {
      listener(this.failure);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private append(scrubbed: Buffer) {
    let buf = scrubbed;
    if (buf.length === 0 || this.cut) return;
    if (this.written + buf.length > MAX_LOG_BYTES) {
      buf = Buffer.concat([
        buf.subarray(0, Math.max(0, MAX_LOG_BYTES - this.written)),
        Buffer.from('\n[berth: the log is cut here, it reached its size limit]\n'),
      ]);
      this.cut = true;
    }
    this.written += buf.length;
    this.tail = (this.tail + buf.toString()).slice(-64 * 1024);
    this.pending.push(buf);
    this.flushing = this.flushing.then(() => this.drain());
  }

  /** Writes what is pending; never rejects (a failure is `failure`). */
  private async drain() {
    if (this.pending.length === 0 || this.failure) return;
    const chunk = Buffer.concat(this.pending);
    this.pending = [];
    try {
      await retryTransient(() => this.port.appendLog(this.runId, this.phase, chunk), {
        ...this.options,
        onFirstRetry: (err) => {
          if (!this.retried) this.options.log?.(`writing its log failed for now (${reasonOf(err)}): trying again`);
          this.retried = true;
        },
      });
    } catch (err) {
      const kind = portFailureOf(err) === 'vanished' ? 'vanished' : 'failed';
      // Kept for the last try of `flush`, before what came since: the bytes stay in order.
      if (kind === 'failed') this.pending.unshift(chunk);
      else this.pending = [];
      this.fail({ kind, reason: reasonOf(err) });
      return;
    }
    this.grown();
  }

  /** Wakes the log's readers; one of theirs failing is no failure of this log. */
  private grown() {
    try {
      runLogMayHaveGrown(this.runId);
    } catch {
      // The readers' own concern.
    }
  }

  private fail(failure: LogFailure) {
    if (this.failure) return;
    this.failure = failure;
    for (const listener of this.listeners) {
      try {
        listener(failure);
      } catch {
        // A listener stops terraform; its own failure must not keep the others from hearing.
      }
    }
    this.listeners.clear();
  }

  /**
   * Writes the rest; never rejects. After a failure other than a vanished run, tries once more with
   * the reason at the end, so that the log says why it ends there if berth takes it now.
   */
  async flush() {
    this.append(this.scrubber.end());
    await this.flushing;
    await this.drain();
    if (this.failure?.kind !== 'failed') return;
    const last = Buffer.concat([
      ...this.pending,
      Buffer.from(`\n[berth: the log could not be written from here on: ${this.failure.reason}]\n`),
    ]);
    this.pending = [];
    await this.port.appendLog(this.runId, this.phase, last).then(
      () => this.grown(),
      () => undefined,
    );
  }
}
