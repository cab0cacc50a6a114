import { useEffect, useState } from 'preact/hooks';
import { api } from '../../../api.js';
import type { Resource } from '../../../jsonapi.js';
import { PHASE_ENDED, tail, type PhaseAttributes } from './run-format.js';

/**
 * A phase's log, polled by offset (new bytes, or the ETX that ends it), without its STX/ETX framing.
 * Polling ends by itself once the phase has ended, so the run's status changing does not start it
 * again: a restart would blank the log shown until the first read came back.
 */
export function PhaseLog({ runId, phase }: { runId: string; phase: 'plan' | 'apply' }) {
  const [text, setText] = useState('');
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let offset = 0;
    let wait = 100;
    let all = '';
    setText('');
    setEnded(false);
    const poll = async () => {
      try {
        const doc = await api<{ data: Resource<PhaseAttributes> }>(
          `/${phase === 'plan' ? 'plans' : 'applies'}/${phase}-${tail(runId)}`,
        );
        const phaseEnded = PHASE_ENDED.includes(doc.data.attributes.status);
        const url = new URL(doc.data.attributes['log-read-url']);
        url.searchParams.set('offset', String(offset));
        url.searchParams.set('limit', '65536');
        const res = await fetch(`${url.pathname}${url.search}`, { credentials: 'omit', cache: 'no-store' });
        const chunk = res.ok ? new Uint8Array(await res.arrayBuffer()) : new Uint8Array();
        if (stop) return;
        offset += chunk.length;
        const piece = new TextDecoder().decode(chunk);
        const etx = piece.indexOf('\x03');
        all += (etx >= 0 ? piece.slice(0, etx) : piece).split('\x02').join('');
        setText(all);
        if (etx >= 0 || (phaseEnded && chunk.length === 0)) {
          setEnded(true);
          return;
        }
        wait = chunk.length > 0 ? 100 : Math.min(1000, wait * 2);
      } catch {
        wait = 1000;
      }
      if (!stop) timer = setTimeout(() => void poll(), wait);
    };
    void poll();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [runId, phase]);
  return (
    <div>
      <h3>
        {phase === 'plan' ? 'Plan' : 'Apply'} log {ended ? '' : <span class="muted">(live)</span>}
      </h3>
      <pre class="run-log" data-testid={`run-log-${phase}`} data-ended={ended ? 'true' : 'false'}>
        {text}
      </pre>
    </div>
  );
}
