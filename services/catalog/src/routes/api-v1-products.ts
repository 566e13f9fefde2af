import {
  productSchema,
  v1PageQuerySchema,
  v1ProductPageSchema,
  pageAfter,
} from '@lockdrop/contracts';
import { AppError, type HttpServer } from '@lockdrop/http';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ProductService } from '../domain/products.js';
import { sellerOf } from './caller.js';
import { errorResponses, toProductDto } from './schemas.js';

const idParams = z.object({ id: z.string().max(64) });
const security = [{ apiKey: [] }];
const tags = ['v1: products'];
const notFound = () => new AppError('product_not_found', 404, 'Product not found');

/**
 * `/api/v1/products`: the seller's products for an API key (the gateway's internal token). Another
 * seller's product is a 404 on every route, published or not: a key learns nothing about it.
 */
export function apiV1ProductRoutes(app: HttpServer, products: ProductService): void {
  const ownProduct = async (request: FastifyRequest, id: string) => {
    const detail = await products.read(id, request.user!.id).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 404) throw notFound();
      throw error;
    });
    if (!detail.viewerIsOwner) throw notFound();
    return detail.product;
  };

  app.get(
    '/api/v1/products',
    {
      preHandler: app.requireApiScope('products:read'),
      schema: {
        summary: "List the seller's products, newest first",
        tags,
        security,
        querystring: v1PageQuerySchema,
        response: { 200: v1ProductPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const all = (await products.listMine(request.user!)).map(toProductDto);
      const page = pageAfter(all, request.query);
      if (!page)
        throw new AppError('invalid_cursor', 400, 'starting_after names no product of yours');
      return { object: 'list' as const, ...page };
    },
  );

  app.get(
    '/api/v1/products/:id',
    {
      preHandler: app.requireApiScope('products:read'),
      schema: {
        summary: 'Retrieve one of the seller’s products',
        tags,
        security,
        params: idParams,
        response: { 200: productSchema, ...errorResponses },
      },
    },
    async (request) => toProductDto(await ownProduct(request, request.params.id)),
  );

  for (const [action, status] of [
    ['publish', 'published'],
    ['unpublish', 'draft'],
  ] as const) {
    app.post(
      `/api/v1/products/:id/${action}`,
      {
        preHandler: app.requireApiScope('products:write'),
        schema: {
          summary:
            action === 'publish' ? 'Publish a product' : 'Unpublish a product (back to draft)',
          tags,
          security,
          params: idParams,
          response: { 200: productSchema, ...errorResponses },
        },
      },
      async (request) => {
        await ownProduct(request, request.params.id);
        return toProductDto(await products.setStatus(sellerOf(request), request.params.id, status));
      },
    );
  }
}
