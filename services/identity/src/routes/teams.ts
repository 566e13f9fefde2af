import {
  acceptInviteRequestSchema,
  acceptedInviteSchema,
  auditLogQuerySchema,
  auditLogSchema,
  inviteRequestSchema,
  myStoresSchema,
  ownershipTransferRequestSchema,
  roleChangeSchema,
  sessionResponseSchema,
  storeInviteSchema,
  storeRoleSchema,
  teamSchema,
} from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SessionService } from '../domain/sessions.js';
import type { Caller, TeamService } from '../domain/teams.js';
import { sessionOf, type SessionGuard } from './current-session.js';
import { clientOf, setSessionCookies } from './http.js';
import { presentIssued } from './schemas.js';

interface TeamRouteDeps {
  teams: TeamService;
  sessions: SessionService;
  guard: SessionGuard;
}

const storeParams = z.object({ storeId: z.uuid() });
const memberParams = z.object({ storeId: z.uuid(), userId: z.uuid() });
const inviteParams = z.object({ storeId: z.uuid(), inviteId: z.uuid() });

/**
 * Team seats (issue 28). Every route runs as the person (their session, acting for a store or
 * not) and checks the person's own membership here: team management is never a store right, so
 * an acting token's role in libs/auth has no say in it.
 */
export function teamRoutes(app: HttpServer, { teams, sessions, guard }: TeamRouteDeps): void {
  const tags = ['teams'];
  const preHandler = guard.requirePerson;
  const callerOf = (request: FastifyRequest): Caller => ({
    userId: sessionOf(request).userId,
    client: clientOf(request),
    correlationId: request.id,
  });

  app.get(
    '/api/auth/stores',
    { schema: { tags, response: { 200: myStoresSchema } }, preHandler },
    async (request) => ({ stores: await teams.myStores(sessionOf(request).userId) }),
  );

  // Switch: the session's access token becomes the store's with the member as actor; the
  // person's own id switches back. The refresh cookie stays the session's.
  app.post(
    '/api/auth/stores/:storeId/act',
    { schema: { tags, params: storeParams, response: { 200: sessionResponseSchema } }, preHandler },
    async (request, reply) => {
      const { userId, sessionId } = sessionOf(request);
      const issued = await sessions.act(userId, sessionId, request.params.storeId);
      if (issued.acting) await teams.recordSwitch(issued.acting.storeId, callerOf(request));
      setSessionCookies(request, reply, issued);
      return presentIssued(issued);
    },
  );

  app.post(
    '/api/auth/invites/accept',
    {
      schema: { tags, body: acceptInviteRequestSchema, response: { 200: acceptedInviteSchema } },
      preHandler,
    },
    async (request) => teams.accept(request.body.token, callerOf(request)),
  );

  app.get(
    '/api/auth/stores/:storeId/members',
    { schema: { tags, params: storeParams, response: { 200: teamSchema } }, preHandler },
    async (request) => teams.team(request.params.storeId, callerOf(request)),
  );

  app.post(
    '/api/auth/stores/:storeId/invites',
    {
      schema: {
        tags,
        params: storeParams,
        body: inviteRequestSchema,
        response: { 201: storeInviteSchema },
      },
      preHandler,
    },
    async (request, reply) => {
      const invite = await teams.invite(request.params.storeId, callerOf(request), request.body);
      return reply.status(201).send({
        id: invite.id,
        email: invite.email,
        role: invite.role,
        expiresAt: invite.expiresAt.toISOString(),
        createdAt: invite.createdAt.toISOString(),
      });
    },
  );

  app.delete(
    '/api/auth/stores/:storeId/invites/:inviteId',
    { schema: { tags, params: inviteParams }, preHandler },
    async (request, reply) => {
      await teams.revokeInvite(request.params.storeId, callerOf(request), request.params.inviteId);
      return reply.status(204).send();
    },
  );

  app.patch(
    '/api/auth/stores/:storeId/members/:userId',
    {
      schema: {
        tags,
        params: memberParams,
        body: roleChangeSchema,
        response: { 200: z.object({ role: storeRoleSchema }) },
      },
      preHandler,
    },
    async (request) => {
      const { storeId, userId } = request.params;
      await teams.changeRole(storeId, callerOf(request), userId, request.body.role);
      return { role: request.body.role };
    },
  );

  // Removing someone else (owner/admin) or, with one's own id, leaving the store.
  app.delete(
    '/api/auth/stores/:storeId/members/:userId',
    { schema: { tags, params: memberParams }, preHandler },
    async (request, reply) => {
      const { storeId, userId } = request.params;
      await teams.remove(storeId, callerOf(request), userId);
      return reply.status(204).send();
    },
  );

  // The owner chooses who stays after a downgrade (issue 28): a read-only member gets their
  // role back while a seat is free.
  app.post(
    '/api/auth/stores/:storeId/members/:userId/keep',
    { schema: { tags, params: memberParams }, preHandler },
    async (request, reply) => {
      const { storeId, userId } = request.params;
      await teams.keep(storeId, callerOf(request), userId);
      return reply.status(204).send();
    },
  );

  // Ownership to an admin, after a recent re-authentication (403 reauthentication_required
  // otherwise). The caller's token is re-issued at once: they are the store's admin from now.
  app.post(
    '/api/auth/stores/:storeId/owner',
    {
      schema: {
        tags,
        params: storeParams,
        body: ownershipTransferRequestSchema,
        response: { 200: sessionResponseSchema },
      },
      preHandler,
    },
    async (request, reply) => {
      const { storeId } = request.params;
      const { userId, sessionId, authTime, acting } = sessionOf(request);
      await teams.transfer(storeId, callerOf(request), request.body.userId, authTime);
      const issued = await sessions.act(userId, sessionId, acting?.storeId ?? userId);
      setSessionCookies(request, reply, issued);
      return presentIssued(issued);
    },
  );

  app.get(
    '/api/auth/stores/:storeId/audit',
    {
      schema: {
        tags,
        params: storeParams,
        querystring: auditLogQuerySchema,
        response: { 200: auditLogSchema },
      },
      preHandler,
    },
    async (request) => {
      const page = await teams.auditLog(request.params.storeId, callerOf(request), request.query);
      return {
        entries: page.entries.map((entry) => ({
          ...entry,
          createdAt: entry.createdAt.toISOString(),
        })),
        nextCursor: page.nextCursor,
      };
    },
  );
}

/**
 * The gateway's question before it forwards a token acting for a store: is the actor still a
 * member, with which role? Never routed from outside (the gateway's table has no /internal).
 */
export function teamInternalRoutes(app: HttpServer, { teams }: { teams: TeamService }): void {
  app.get(
    '/internal/stores/:storeId/members/:userId',
    {
      schema: {
        tags: ['internal'],
        hide: true,
        params: memberParams,
        response: {
          200: z.object({ active: z.boolean(), role: storeRoleSchema.nullable() }),
        },
      },
    },
    async (request) => teams.membership(request.params.storeId, request.params.userId),
  );
}
