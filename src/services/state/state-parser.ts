import { Worker } from 'node:worker_threads';
import { invalid, payloadTooLarge } from '../../domain/common/errors.js';
import { md5Hex } from '../../domain/state/state.js';
import {
  jsonStateProblem,
  parseStateText,
  STATE_PARSE_FUNCTIONS,
  STATE_PARSE_LIMITS,
  type ParsedState,
  type StateParseLimits,
  type StateParseResult,
} from '../../domain/state/state-parse.js';

/** Smaller files are checked on the calling thread: a few milliseconds, less than starting a worker. */
export const IN_THREAD_BYTES = 256 * 1024;
/** The heap a parsing worker may use; beyond it the worker stops and the upload is refused (413). */
const WORKER_HEAP_MB = 1024;
/** Parses running at once; more wait their turn (each may use up to WORKER_HEAP_MB). */
const MAX_PARALLEL = 2;

type Kind = 'state' | 'json-state';
type Outcome = { md5Mismatch: true } | { result: StateParseResult } | { problem: string | null };

/**
 * The worker: the functions of domain/state/state-parse.ts from their source text (the CommonJS bundle
 * and the tests' ES modules alike), then one job from `workerData`, answered with one message.
 */
const workerSource = () => `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
${STATE_PARSE_FUNCTIONS.map((f) => f.toString()).join('\n')}
parentPort.once('message', ({ bytes, md5, kind, limits }) => {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let outcome;
  if (md5 !== null && createHash('md5').update(buf).digest('hex') !== md5) {
    outcome = { md5Mismatch: true };
  } else {
    const text = buf.toString('utf8');
    outcome = kind === 'state'
      ? { result: ${parseStateText.name}(text, limits) }
      : { problem: ${jsonStateProblem.name}(text, limits) };
  }
  parentPort.postMessage({ outcome, bytes }, [bytes.buffer]);
});
`;

let source: string | undefined;
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** The bytes, moved (not copied) to the worker and back, when the buffer is the whole of its memory. */
function movable(bytes: Buffer): Uint8Array {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return own ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes);
}

interface Checked {
  outcome: Outcome;
  /** The bytes checked: after a worker, the same memory handed back (the caller's buffer is emptied). */
  bytes: Buffer;
}

function onWorker(bytes: Buffer, md5: string | null, kind: Kind, limits: StateParseLimits): Promise<Checked> {
  return inTurn(
    () =>
      new Promise<Checked>((resolve, reject) => {
        source ??= workerSource();
        const worker = new Worker(source, { eval: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
        let answered = false;
        worker.once('message', (answer: { outcome: Outcome; bytes: Uint8Array }) => {
          answered = true;
          const back = answer.bytes;
          resolve({ outcome: answer.outcome, bytes: Buffer.from(back.buffer, back.byteOffset, back.byteLength) });
          void worker.terminate();
        });
        worker.once('error', (err: NodeJS.ErrnoException) => {
          if (answered) return;
          answered = true;
          if (err.code === 'ERR_WORKER_OUT_OF_MEMORY')
            reject(payloadTooLarge(`the ${kind === 'state' ? 'state' : 'JSON state'} is too large to process`));
          else reject(err);
        });
        worker.once('exit', (code) => {
          if (!answered) reject(new Error(`the state parsing worker stopped with code ${code}`));
        });
        const view = movable(bytes);
        worker.postMessage({ bytes: view, md5, kind, limits }, [view.buffer as ArrayBuffer]);
      }),
  );
}

function onThisThread(bytes: Buffer, md5: string | null, kind: Kind, limits: StateParseLimits): Outcome {
  if (md5 !== null && md5Hex(bytes) !== md5) return { md5Mismatch: true };
  const text = bytes.toString('utf8');
  return kind === 'state' ? { result: parseStateText(text, limits) } : { problem: jsonStateProblem(text, limits) };
}

function check(bytes: Buffer, md5: string | null, kind: Kind): Promise<Checked> {
  return bytes.length <= IN_THREAD_BYTES
    ? Promise.resolve({ outcome: onThisThread(bytes, md5, kind, STATE_PARSE_LIMITS), bytes })
    : onWorker(bytes, md5, kind, STATE_PARSE_LIMITS);
}

/**
 * Checks an uploaded state against its md5 and parses it within the bounds of STATE_PARSE_LIMITS,
 * on a worker thread when it is big: called before any transaction is opened, so that neither the
 * event loop nor the database's write lock waits for a parse. 422 at `pointer` when the md5 does
 * not match, the state is not a JSON object or it is beyond a bound; 413 when the worker runs out
 * of memory. The bytes move to the worker and back without a copy: use the ones returned (`given`
 * may be emptied).
 */
export async function parseUploadedState(
  given: Buffer,
  md5: string,
  pointer: string,
): Promise<{ state: ParsedState; bytes: Buffer }> {
  const { outcome, bytes } = await check(given, md5, 'state');
  if ('md5Mismatch' in outcome) throw invalid(pointer, 'State does not match its md5 checksum');
  if (!('result' in outcome)) throw new Error('unexpected answer of the state parser');
  if (!outcome.result.ok) throw invalid(pointer, outcome.result.detail);
  return { state: outcome.result.state, bytes };
}

/** Checks an uploaded JSON state (`terraform show -json`) the same way: JSON, within the bounds (422 at `pointer`). */
export async function checkUploadedJsonState(given: Buffer, pointer: string): Promise<Buffer> {
  const { outcome, bytes } = await check(given, null, 'json-state');
  if ('problem' in outcome && outcome.problem !== null) throw invalid(pointer, outcome.problem);
  return bytes;
}
