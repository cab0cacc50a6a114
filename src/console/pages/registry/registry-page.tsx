import { ModulesCard } from './modules-card.js';
import { ProvidersCard } from './providers-card.js';

/**
 * The organization's private registry: its modules and providers, each with the lines a
 * configuration needs to use it (the hostname is the console's own: berth serves the registry at
 * the address the browser reached it by).
 */
export function RegistryPage({ org }: { org: string }) {
  return (
    <>
      <h1>Registry</h1>
      <p class="muted">
        Modules and providers that terraform installs from <code>{location.host}</code>, with the credentials of{' '}
        <code>terraform login {location.host}</code>.
      </p>
      <ModulesCard org={org} />
      <ProvidersCard org={org} />
    </>
  );
}
