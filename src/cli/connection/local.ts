import { createApp } from '../../api/app.js';
import { installInProcessHttpObjects } from '../../client/in-process-http.js';
import { InProcessTransport } from '../../client/transport.js';
import { localAdminActor } from '../../services/identity/admin-user.js';
import { loadSettings } from '../../services/instance/settings.js';
import type { DatabaseLocation } from '../../store/location.js';
import { openStore } from '../../store/open.js';
import { attachSecretKey } from '../../store/secrets/attach.js';
import { secretKeySource } from '../../store/secrets/key-source.js';

/**
 * Local mode: the very same API app, called in-process over the local SQLite file (or,
 * with `--database postgres://...`, a PostgreSQL database). Without a
 * token the caller acts as the site-administrator user `admin` (created at first use). Requests and responses are the light
 * in-process stand-ins of client/in-process-http.ts (no socket, so no need to load undici).
 * The key of sensitive values is looked for as serve looks for it (BERTH_SECRET_KEY_FILE,
 * BERTH_SECRET_KEY, else the key file beside the database, created for a new one); a missing or
 * wrong key fails only what needs a value (storing or running with a sensitive one), with its reason.
 */
export async function localTransport(database: string | DatabaseLocation): Promise<InProcessTransport> {
  installInProcessHttpObjects();
  const store = await openStore(database);
  await attachSecretKey(store, secretKeySource(database, undefined, process.env), { create: true });
  const settings = await loadSettings(store.db);
  const localActor = await localAdminActor(store.db, new Date());
  const app = createApp({ db: store.db, settings, localActor, singleRequest: true });
  return new InProcessTransport(
    (req) => app.fetch(req),
    () => store.close(),
  );
}
