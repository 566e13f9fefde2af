import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import {
  createProductSchema,
  productDetailSchema,
  productListSchema,
  productSchema,
  productStatusSchema,
  updateProductSchema,
} from '@lockdrop/contracts';
import type { BrandService } from '../domain/brands.js';
import type { ProductService } from '../domain/products.js';
import { sellerOf, visitOf } from './caller.js';
import { errorResponses, toProductDto } from './schemas.js';

const idParams = z.object({ id: z.string().max(64) });
const secured: Record<string, string[]>[] = [{ bearer: [] }, { cookie: [] }];

export function productRoutes(
  app: HttpServer,
  products: ProductService,
  brands: BrandService,
): void {
  app.post(
    '/api/products',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'products:write' },
      schema: {
        summary: 'Create a product (draft) from an upload of the seller',
        tags: ['products'],
        security: secured,
        body: createProductSchema,
        response: { 201: productSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const product = await products.create(sellerOf(request), request.body);
      return reply.status(201).send(toProductDto(product));
    },
  );

  app.get(
    '/api/products/mine',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'products:read' },
      schema: {
        summary: "The signed-in seller's products, newest first",
        tags: ['products'],
        security: secured,
        response: { 200: productListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      products: (await products.listMine(sellerOf(request).user)).map(toProductDto),
    }),
  );

  app.get(
    '/api/products/:id',
    {
      preHandler: app.identify,
      config: { storeRight: 'products:read' },
      schema: {
        summary: 'One product: published for anyone, drafts for their owner only',
        tags: ['products'],
        params: idParams,
        querystring: z.object({
          /** Show the price in this supported currency. */
          currency: z.string().max(8).optional(),
          /** The page's own document.referrer, for analytics. */
          referrer: z.string().max(500).optional(),
          /** `false` for server-side reads (share-page meta) that are not a person viewing. */
          countView: z.enum(['true', 'false']).default('true'),
        }),
        response: { 200: productDetailSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { currency, referrer, countView } = request.query;
      const visit = countView === 'true' ? visitOf(request, referrer) : null;
      const detail = await products.read(request.params.id, request.user?.id ?? null, {
        ...(currency ? { displayCurrency: currency } : {}),
        ...(visit ? { visit } : {}),
      });
      const store = await brands.shownStoreOf(detail.product.ownerId);
      return {
        ...toProductDto(detail.product),
        // When the seller last e-mailed their buyers is theirs to know, not every visitor's.
        ...(detail.viewerIsOwner ? {} : { buyersToldAt: null }),
        viewerIsOwner: detail.viewerIsOwner,
        display: detail.display,
        displayMinimum: detail.displayMinimum,
        brand: store.brand,
        sellerName: store.sellerName,
        storeDomain: store.domain,
      };
    },
  );

  app.patch(
    '/api/products/:id',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'products:write' },
      schema: {
        summary: 'Edit a product (owner only); a new fileId replaces the file',
        tags: ['products'],
        security: secured,
        params: idParams,
        body: updateProductSchema,
        response: { 200: productSchema, ...errorResponses },
      },
    },
    async (request) =>
      toProductDto(await products.update(sellerOf(request), request.params.id, request.body)),
  );

  app.post(
    '/api/products/:id/status',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'products:write' },
      schema: {
        summary: 'Publish or unpublish (owner only); setting the current status again is a no-op',
        tags: ['products'],
        security: secured,
        params: idParams,
        body: z.object({ status: productStatusSchema }),
        response: { 200: productSchema, ...errorResponses },
      },
    },
    async (request) =>
      toProductDto(
        await products.setStatus(sellerOf(request), request.params.id, request.body.status),
      ),
  );

  app.delete(
    '/api/products/:id',
    {
      preHandler: app.authenticate,
      config: { storeRight: 'products:write' },
      schema: {
        summary: 'Delete a product (owner only)',
        tags: ['products'],
        security: secured,
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await products.remove(sellerOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
}
