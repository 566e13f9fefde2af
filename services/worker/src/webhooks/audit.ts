import type { AuthUser } from '@lockdrop/auth';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import type { FastifyRequest } from 'fastify';

/**
 * Who changed an endpoint and from where, for the store's one audit log (issue 28): the person —
 * a member acting for the store is named, not the store; an API key's changes name the store.
 */
export interface EndpointChangeSource {
  ip: string | null;
  userAgent: string | null;
  correlationId: string;
}

export const changeSourceOf = (request: FastifyRequest): EndpointChangeSource => ({
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
  correlationId: String(request.id),
});

export type EndpointAction =
  | 'webhook_endpoint.created'
  | 'webhook_endpoint.updated'
  | 'webhook_endpoint.deleted'
  | 'webhook_endpoint.secret_rotated'
  | 'webhook_endpoint.secret_revealed';

/**
 * Reports the change to identity's audit log in the change's own transaction (this service's
 * outbox): it is logged if and only if it happened. Never a secret in `details`.
 */
export async function recordEndpointAction(
  tx: Queryable,
  seller: AuthUser,
  source: EndpointChangeSource,
  action: EndpointAction,
  endpoint: { id: string; url: string; mode: string },
): Promise<void> {
  await enqueueEvent(
    tx,
    createEvent(
      'audit.worker_action',
      {
        storeId: seller.id,
        actorId: seller.actor?.id ?? seller.id,
        action,
        target: endpoint.id,
        details: {
          url: endpoint.url.slice(0, 300),
          mode: endpoint.mode,
          ...(seller.apiKey ? { apiKeyId: seller.apiKey.id } : {}),
        },
        ip: source.ip,
        userAgent: source.userAgent,
      },
      { correlationId: source.correlationId },
    ),
  );
}
