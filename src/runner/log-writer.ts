import { MAX_LOG_BYTES } from '../domain/runs/run-execution.js';
import { LogScrubber } from './log-scrubber.js';
import type { Phase, RunnerPort } from './port.js';
import { runLogMayHaveGrown } from './wake.js';

/** Writes a phase's log in order, batching what comes while a write is under way; bounded. */
export class LogWriter {
  private pending: Buffer[] = [];
  private written = 0;
  private flushing: Promise<void> = Promise.resolve();
  private cut = false;
  private scrubber = new LogScrubber([]);
  held = Buffer.alloc(0);
  /** The end of what was written (64 KiB), where the plan's summary line is. */
  tail = '';

  constructor(
    private readonly port: RunnerPort,
    private readonly runId: string,
    private readonly phase: Phase,
  ) {}

  /** From now on, `values` (sensitive variables) are written `(sensitive value)`. */
  conceal(values: string[]) {
    this.scrubber = new LogScrubber(values);
  }

  hold(chunk: Buffer) {
    if (this.held.length < 256 * 1024) this.held = Buffer.concat([this.held, chunk]);
  }

  write(chunk: Buffer | string) {
    if (this.cut) return;
    this.append(this.scrubber.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
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

  private async drain() {
    if (this.pending.length === 0) return;
    const chunk = Buffer.concat(this.pending);
    this.pending = [];
    await this.port.appendLog(this.runId, this.phase, chunk);
    runLogMayHaveGrown(this.runId);
  }

  async flush() {
    this.append(this.scrubber.end());
    await this.flushing;
    await this.drain();
  }
}
