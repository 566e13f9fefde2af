import { baseServiceEnv, env } from '@lockdrop/config';

/** Env every domain service reads; each service spreads it into its own zod schema. */
export function serviceEnv(defaultPort: number) {
  return {
    ...baseServiceEnv,
    PORT: env.port(defaultPort),
    DATABASE_URL: env.databaseUrl,
    /**
     * Set to run as a role of its own: migrations (and the grants of DATABASE_URL's role on this
     * service's schema only) run with this admin connection, then the service connects as
     * DATABASE_URL's role. Unset (local development): one connection string does everything.
     */
    DATABASE_ADMIN_URL: env.optionalDatabaseUrl,
    NATS_URL: env.natsUrl,
    BUS_NAMESPACE: env.busNamespace,
    /** Identity's published key set; every service verifies access tokens itself. */
    JWKS_URL: env.url('http://127.0.0.1:3001/.well-known/jwks.json'),
  };
}
