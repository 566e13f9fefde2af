import type { HttpServer } from '@lockdrop/http';
import type { KeyRing } from '../keys/key-ring.js';

export function wellKnownRoutes(app: HttpServer, { keys }: { keys: KeyRing }): void {
  // Verifiers cache it for 10 minutes (spec §9) and refetch on an unknown kid.
  app.get('/.well-known/jwks.json', { schema: { tags: ['auth'] } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=600').send(keys.jwks),
  );
}
