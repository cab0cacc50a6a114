import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { DeliveryResponse } from '../../domain/notifications/notification-configuration.js';
import { checkedLookup, isPrivateAddress, type DestinationCheck } from './destination-address.js';

/**
 * One POST of a notification: JSON body, no redirect followed, no connection kept, a deadline for
 * the whole exchange, the destination's addresses checked as it connects (destination-address.ts),
 * and what came back kept bounded (HCP: the body "may be truncated"): at most MAX_BODY_BYTES of
 * the body, MAX_HEADERS headers of at most MAX_HEADER_VALUE characters each.
 */
export const MAX_BODY_BYTES = 4096;
const MAX_HEADERS = 50;
const MAX_HEADER_VALUE = 1024;

export interface PostOutcome {
  response: DeliveryResponse;
  /** Worth trying again later: no answer (network, deadline), 408, 429 or a 5xx. */
  retryable: boolean;
}

export interface PostOptions extends DestinationCheck {
  timeoutMs: number;
  sentAt: string;
}

function keptHeaders(res: IncomingMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(res.headersDistinct).slice(0, MAX_HEADERS))
    if (values) out[name] = values.map((v) => v.slice(0, MAX_HEADER_VALUE));
  return out;
}

/** What a delivery that got no answer records: no code, the reason as its body. */
export function failedResponse(url: string, sentAt: string, reason: string): DeliveryResponse {
  return { url, body: reason, code: '', headers: {}, sentAt, successful: false };
}

export function postNotification(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostOutcome> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // node:net connects to an address literal without asking `lookup`: checked here instead.
  if (!options.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host))
    return Promise.resolve({
      response: failedResponse(
        url,
        options.sentAt,
        `${host} is a private or loopback address, which this berth does not allow`,
      ),
      retryable: false,
    });
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const req = send(
      target,
      {
        method: 'POST',
        agent: false,
        lookup: checkedLookup(options),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'berth-notifications',
          'content-length': String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const code = res.statusCode ?? 0;
          done({
            response: {
              url,
              body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY_BYTES),
              code: String(code),
              headers: keptHeaders(res),
              sentAt: options.sentAt,
              successful: code >= 200 && code < 300,
            },
            retryable: code === 408 || code === 429 || code >= 500,
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_BODY_BYTES) chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
          size += chunk.length;
          // Enough kept: the rest is not read (the connection is not reused).
          if (size >= MAX_BODY_BYTES) {
            finish();
            res.destroy();
          }
        });
        res.on('end', finish);
        res.on('error', finish);
        res.on('aborted', finish);
      },
    );
    const deadline = setTimeout(() => {
      req.destroy(Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      done({
        response: failedResponse(url, options.sentAt, err.message || String(err.code)),
        retryable: err.code !== 'EPRIVATEADDRESS',
      });
    });
    req.end(body);
  });
}
