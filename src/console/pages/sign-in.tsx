import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorMessage } from '../components/common.js';
import { storeToken } from '../token.js';

/** Paste a token; it is checked against `GET /account/details` before it is kept. */
export function SignInPage({ notice, onSignedIn }: { notice: string | null; onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(notice);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const value = token.trim();
    if (value === '') return setError('paste an API token (berth token create, or berth login --web)');
    setBusy(true);
    setError(null);
    try {
      await api('/account/details', { token: value });
      storeToken(value);
      onSignedIn();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="sign-in">
      <h1>berth console</h1>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <label for="token">API token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          data-testid="token-input"
          aria-describedby="token-help"
        />
        <p id="token-help" class="muted">
          The token stays in this tab only (session storage) and is forgotten when you sign out or close the tab. Or run{' '}
          <code>berth login --web</code> for a one-time sign-in link.
        </p>
        <button type="submit" disabled={busy} data-testid="sign-in">
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorMessage message={error} />
      </form>
    </main>
  );
}
