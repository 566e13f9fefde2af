import { z } from 'zod';

/**
 * A money, team or store-settings action a person took for a store in another service than identity (issue 28's
 * audit log): who (the person, not the store their token stands for), what, on what, from
 * where. Emitted in the action's own transaction; identity's `identity.audit` consumer writes it
 * to the one audit log, so the owner reads every action in one place. When is the event's
 * `occurredAt`.
 */
export const auditedActionSchema = z.object({
  storeId: z.uuid(),
  /** The person who acted (a member's own id when acting for the store); null for a schedule. */
  actorId: z.uuid().nullable(),
  /** `<area>.<verb>`: `refund.requested`, `payout.withdrawn`, `webhook_endpoint.created`, … */
  action: z.string().regex(/^[a-z_]+\.[a-z_]+$/),
  target: z.string().max(300).nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().max(100).nullable(),
  userAgent: z.string().max(512).nullable(),
});
export type AuditedAction = z.infer<typeof auditedActionSchema>;
