import type { AuthUser } from '@lockdrop/auth';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import type { FastifyRequest } from 'fastify';

/**
 * Who took a money action and from where (issue 28's audit log): the person — a member acting
 * for the store is named, not the store — with the request's address and browser.
 */
export interface ActionSource {
  actorId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** The source of an action taken by the signed-in caller of `request` (or an API key's seller). */
export function actionSourceOf(request: FastifyRequest): ActionSource {
  const user: AuthUser | null = request.user;
  return {
    actorId: user ? (user.actor?.id ?? user.id) : null,
    ip: request.ip ?? null,
    userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
  };
}

/** Who took an action, from where, in which request (events carry the request's id). */
export interface AuditedBy {
  source: ActionSource;
  correlationId: string;
}

export const auditedBy = (request: FastifyRequest): AuditedBy => ({
  source: actionSourceOf(request),
  correlationId: String(request.id),
});

/** A schedule's action: nobody took it, nothing to say where from. */
export const SCHEDULED: ActionSource = { actorId: null, ip: null, userAgent: null };

/**
 * Reports the action to identity's audit log, in the action's own transaction: it is logged if
 * and only if it happened.
 */
export async function recordAction(
  tx: Queryable,
  source: ActionSource,
  action: {
    storeId: string;
    action: string;
    target: string | null;
    details?: Record<string, unknown>;
  },
  correlationId: string,
): Promise<void> {
  await enqueueEvent(
    tx,
    createEvent(
      'audit.payments_action',
      {
        storeId: action.storeId,
        actorId: source.actorId,
        action: action.action,
        target: action.target,
        details: action.details ?? {},
        ip: source.ip,
        userAgent: source.userAgent,
      },
      { correlationId },
    ),
  );
}
