import type { HttpServer } from '@lockdrop/http';
import { errors } from '@lockdrop/http';
import { addDomainSchema, domainRouteSchema, domainSettingsSchema } from '@lockdrop/contracts';
import { z } from 'zod';
import type { DomainService } from '../domain/domains.js';
import { sellerOf } from './caller.js';
import { errorResponses } from './schemas.js';

const secured: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];

/**
 * The store's custom domain (issue 28, Business): its owner's and an admin's (`domain:manage`),
 * never another role's; a member acting for the store works on the store's domain.
 */
export function domainRoutes(app: HttpServer, domains: DomainService): void {
  const seller = (request: Parameters<typeof sellerOf>[0]) => {
    const { user, requestId } = sellerOf(request);
    return { user, requestId };
  };

  app.get(
    '/api/domain',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'domain:manage' },
      schema: {
        summary: "The signed-in seller's custom domain, the DNS records to create and its state",
        tags: ['domain'],
        security: secured,
        response: { 200: domainSettingsSchema, ...errorResponses },
      },
    },
    (request) => domains.settings(seller(request).user),
  );

  app.put(
    '/api/domain',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'domain:manage' },
      schema: {
        summary: 'Connect a custom domain to the store (Business); a new host starts pending',
        tags: ['domain'],
        security: secured,
        body: addDomainSchema,
        response: { 200: domainSettingsSchema, 409: errorResponses[403], ...errorResponses },
      },
    },
    (request) => domains.add(seller(request), request.body),
  );

  app.post(
    '/api/domain/verify',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'domain:manage' },
      schema: {
        summary: 'Look the domain\'s DNS records up now ("Verify now")',
        tags: ['domain'],
        security: secured,
        response: { 200: domainSettingsSchema, ...errorResponses },
      },
    },
    (request) => domains.verifyNow(seller(request)),
  );

  app.delete(
    '/api/domain',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'domain:manage' },
      schema: {
        summary: 'Disconnect the custom domain; the store stays at its Lockdrop addresses',
        tags: ['domain'],
        security: secured,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await domains.remove(seller(request));
      return reply.status(204).send(null);
    },
  );
}

/**
 * The gateway's question for a request's Host: which store does it show, and may it now?
 * Never routed from outside (the gateway's table has no /internal).
 */
export function domainInternalRoutes(app: HttpServer, domains: DomainService): void {
  app.get(
    '/internal/domains/:host',
    {
      logLevel: 'warn',
      schema: {
        tags: ['internal'],
        hide: true,
        params: z.object({ host: z.string().min(1).max(253) }),
        response: { 200: domainRouteSchema, 404: errorResponses[404] },
      },
    },
    async (request) => {
      const route = await domains.route(request.params.host);
      if (!route) throw errors.notFound('domain_not_found', 'No store has this domain');
      return route;
    },
  );
}
