import type { HttpServer } from '@lockdrop/http';
import { errors } from '@lockdrop/http';
import { formatMoney } from '@lockdrop/money';
import { z } from 'zod';
import {
  brandSettingsSchema,
  storePageSchema,
  STORE_HANDLE_PATTERN,
  updateBrandSchema,
} from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import { listPublishedOf } from '../db/products.repo.js';
import type { BrandService } from '../domain/brands.js';
import { sellerOf } from './caller.js';
import { errorResponses } from './schemas.js';

const secured: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];
const storeNotFound = () => errors.notFound('store_not_found', 'Store not found');

export function brandRoutes(app: HttpServer, brands: BrandService, pool: Pool): void {
  app.get(
    '/api/brand',
    {
      preHandler: app.authenticate,
      // The store's brand: its owner's and an admin's (issue 28), never another role's.
      config: { storeRight: 'brand:manage' },
      schema: {
        summary: "The signed-in seller's store brand and whether their plan shows it",
        tags: ['brand'],
        security: secured,
        response: { 200: brandSettingsSchema, ...errorResponses },
      },
    },
    (request) => brands.settings(sellerOf(request).user),
  );

  app.put(
    '/api/brand',
    {
      preHandler: app.authenticate,
      // The store's brand: its owner's and an admin's (issue 28), never another role's.
      config: { storeRight: 'brand:manage' },
      schema: {
        summary: 'Save the store brand: handle, name, logo, accent colour (Pro and up)',
        tags: ['brand'],
        security: secured,
        body: updateBrandSchema,
        response: { 200: brandSettingsSchema, 409: errorResponses[403], ...errorResponses },
      },
    },
    (request) => {
      const seller = sellerOf(request);
      return brands.save(
        {
          user: seller.user,
          requestId: seller.requestId,
          client: { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null },
        },
        request.body,
      );
    },
  );

  app.get(
    '/api/stores/:handle',
    {
      schema: {
        summary: "A store's public page: its brand and published products",
        tags: ['brand'],
        params: z.object({ handle: z.string().max(64) }),
        response: { 200: storePageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const handle = request.params.handle.toLowerCase();
      if (!STORE_HANDLE_PATTERN.test(handle)) throw storeNotFound();
      const store = await brands.storeByHandle(handle);
      if (!store) throw storeNotFound();
      const products = await listPublishedOf(pool, store.sellerId);
      return {
        handle,
        brand: store.brand,
        domain: store.domain,
        products: products.map((product) => ({
          id: product.id,
          title: product.title,
          description: product.description,
          priceFormatted: formatMoney(product.priceMinor, product.currency),
          pricing: product.pricing,
          previewEnabled: product.previewEnabled,
          fileKind: product.fileKind,
        })),
      };
    },
  );
}
