import type { IncomingMessage } from 'node:http';
import { BerthError } from '../domain/common/errors.js';

/**
 * Whether a request failed because its client closed the connection before sending the whole
 * request (its body cut short). Node reports that as an `ECONNRESET` "aborted" error, the code a
 * broken database connection has too: without this check, every client that hung up mid-upload
 * was answered (to no one) 503 and logged, stack and all, as a database outage.
 */
export function isClientAbort(incoming: IncomingMessage | undefined): boolean {
  return incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.errored !== null);
}

/**
 * The answer to an aborted request, which no one receives: the access log shows it as 499 (the
 * status nginx logs for a client that closed the connection), one line, no stack trace.
 */
export function clientClosedRequest(): BerthError {
  return new BerthError([
    {
      status: 499,
      title: 'client closed request',
      detail: 'the client closed the connection before its request was complete; nothing was done',
    },
  ]);
}
