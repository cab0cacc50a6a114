import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorMessage } from '../components/common.js';
import type { AccountAttributes, Document } from '../jsonapi.js';
import { useApi } from '../use-api.js';

/** The OAuth parameters of the CLI's request, as the API's attributes name them. */
const PARAMETERS = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'state'];

function attributesOf(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PARAMETERS) {
    const value = query.get(name);
    if (value !== null) out[name.replace(/_/g, '-')] = value;
  }
  return out;
}

/** Where the CLI waits (`localhost:10003`), or the raw value when it is no URL (the API refuses it). */
function callbackOf(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

/**
 * `terraform login`'s approval page (`#/terraform-login?client_id=...`, reached through the
 * server's `/terraform-login/authorize`): the signed-in person sees which client asks and where
 * the token would go, and approves (the browser then goes to the CLI's callback with the code) or
 * denies. The API checks the request again, so a hand-made address can approve nothing foreign.
 */
export function TerraformLoginPage({ query }: { query: URLSearchParams }) {
  const me = useApi<Document<AccountAttributes>>('/account/details');
  const [outcome, setOutcome] = useState<'asking' | 'busy' | 'approved' | 'denied'>('asking');
  const [error, setError] = useState<string | null>(null);
  const attributes = attributesOf(query);
  const decide = async (approve: boolean) => {
    setOutcome('busy');
    setError(null);
    const type = approve ? 'terraform-login-approvals' : 'terraform-login-denials';
    try {
      const doc = await api<Document<{ 'redirect-to': string }>>(
        `/terraform-login/${approve ? 'approvals' : 'denials'}`,
        {
          method: 'POST',
          body: { data: { type, attributes } },
        },
      );
      if (!approve) return setOutcome('denied');
      setOutcome('approved');
      location.assign(doc.data.attributes['redirect-to']);
    } catch (err) {
      setError((err as Error).message);
      setOutcome('asking');
    }
  };
  return (
    <>
      <h1>Terraform login</h1>
      <section class="card" data-testid="terraform-login">
        <p>
          <code data-testid="terraform-login-client">{attributes['client-id'] ?? '(no client)'}</code> asks for an API
          token of your user{me.data ? <strong> {me.data.data.attributes.username}</strong> : null}.
        </p>
        <p>
          If you approve, berth creates a user token (described as <q>terraform login</q>, with no expiry) and hands it
          to the program waiting on this computer at{' '}
          <code data-testid="terraform-login-callback">{callbackOf(attributes['redirect-uri'] ?? '')}</code>. It can
          then do everything you can, until you revoke it. Approve only if you just ran <code>terraform login</code>{' '}
          yourself.
        </p>
        {outcome === 'approved' && <p data-testid="terraform-login-approved">Approved: returning to Terraform…</p>}
        {outcome === 'denied' && (
          <p data-testid="terraform-login-denied">
            Denied: no token was made. <code>terraform login</code> keeps waiting; stop it with Ctrl-C.
          </p>
        )}
        {(outcome === 'asking' || outcome === 'busy') && (
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={outcome === 'busy'}
              onClick={() => void decide(true)}
              data-testid="terraform-login-approve"
            >
              Approve
            </button>
            <button
              type="button"
              disabled={outcome === 'busy'}
              onClick={() => void decide(false)}
              data-testid="terraform-login-deny"
            >
              Deny
            </button>
          </div>
        )}
        <ErrorMessage message={error} />
      </section>
    </>
  );
}
