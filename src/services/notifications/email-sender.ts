/**
 * Sends a notification email through the SMTP server given to serve (`--smtp-url`,
 * BERTH_SMTP_URL), with nodemailer, loaded only when a mail goes out (it stays out of the CLI
 * bundle: scripts/build.mjs). The SMTP server is the operator's choice, so the private-address
 * rule of notification URLs does not apply to it.
 */

export interface Email {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface EmailOutcome {
  ok: boolean;
  /** What the SMTP server answered, or why it could not be reached. */
  detail: string;
  retryable: boolean;
}

/** The sender when none is configured: berth at the SMTP server's host. */
export function defaultFrom(smtpUrl: string): string {
  let host = 'localhost';
  try {
    host = new URL(smtpUrl).hostname || host;
  } catch {
    // checked when serve starts; a bad URL fails at send time with its own message
  }
  return `berth@${host.replace(/^\[|\]$/g, '')}`;
}

/** Whether `url` can be an SMTP server's URL (`smtp://` or `smtps://`, with a host). */
export function smtpUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url} is not a URL (give smtp://HOST:PORT or smtps://USER:PASSWORD@HOST:PORT)`;
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') return `${url} is not an smtp:// or smtps:// URL`;
  if (parsed.hostname === '') return `${url} names no host`;
  return null;
}

export async function sendEmail(smtpUrl: string, email: Email, timeoutMs: number): Promise<EmailOutcome> {
  const nodemailer = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as never);
  try {
    const info = (await transport.sendMail({
      from: email.from,
      to: email.to,
      subject: email.subject,
      text: email.text,
    })) as { response?: string; rejected?: unknown[] };
    const rejected = info.rejected?.length ?? 0;
    return {
      ok: rejected === 0,
      detail: `${info.response ?? 'sent'}${rejected > 0 ? ` (${rejected} recipients refused)` : ''}`,
      retryable: false,
    };
  } catch (err) {
    const e = err as { message?: string; responseCode?: number; code?: string };
    // A 5xx answer of the server is final; no answer, or a 4xx (try later), is worth another try.
    const permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
    return { ok: false, detail: e.message ?? String(err), retryable: !permanent };
  } finally {
    transport.close();
  }
}
