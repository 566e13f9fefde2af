import { profileChangesSchema, profileSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import type { AccountService } from '../domain/accounts.js';
import type { ProfileService } from '../domain/profiles.js';
import { sessionOf, type SessionGuard } from './current-session.js';
import { clearSessionCookies } from './http.js';
import { presentProfile } from './schemas.js';

interface ProfileRouteDeps {
  profiles: ProfileService;
  accounts: AccountService;
  guard: SessionGuard;
}

export function profileRoutes(
  app: HttpServer,
  { profiles, accounts, guard }: ProfileRouteDeps,
): void {
  const tags = ['profile'];
  const preHandler = guard.requireSession;

  app.get(
    '/api/profile',
    { schema: { tags, response: { 200: profileSchema } }, preHandler },
    async (request) => presentProfile(await profiles.get(sessionOf(request).userId)),
  );

  app.patch(
    '/api/profile',
    { schema: { tags, body: profileChangesSchema, response: { 200: profileSchema } }, preHandler },
    async (request) =>
      presentProfile(await profiles.update(sessionOf(request).userId, request.body, request.id)),
  );

  app.delete(
    '/api/profile',
    {
      schema: {
        tags,
        body: z.object({ password: z.string().optional(), email: z.string().optional() }),
      },
      // Deleting the account deletes the store it is: not for a former owner who handed it on.
      preHandler: guard.requireAccountHolder,
    },
    async (request, reply) => {
      await accounts.deleteAccount(sessionOf(request).userId, request.body, request.id);
      clearSessionCookies(request, reply);
      return reply.status(204).send();
    },
  );
}
