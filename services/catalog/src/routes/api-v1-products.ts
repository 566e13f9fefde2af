import {
  pageOfRows,
  v1CreateProductSchema,
  v1PageQuerySchema,
  v1ProductPageSchema,
  v1ProductSchema,
  v1UpdateProductSchema,
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
 * Create and update are the dashboard's (`ProductService`), with its validation and events.
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
      const { starting_after, limit } = request.query;
      const rows = await products.pageMine(request.user!, { startingAfter: starting_after, limit });
      if (!rows)
        throw new AppError('invalid_cursor', 400, 'starting_after names no product of yours');
      const page = pageOfRows(rows, limit);
      return {
        object: 'list' as const,
        data: page.data.map(toProductDto),
        has_more: page.has_more,
      };
    },
  );

  app.post(
    '/api/v1/products',
    {
      preHandler: app.requireApiScope('products:write'),
      schema: {
        summary: 'Create a product (a draft) from one of the seller’s files',
        description:
          'Upload the file first with POST /api/v1/files and pass its id as `fileId`. The product ' +
          'starts as a draft; publish it with POST /api/v1/products/{id}/publish.',
        tags,
        security,
        body: v1CreateProductSchema,
        response: { 201: v1ProductSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const product = await products.create(sellerOf(request), request.body);
      return reply.status(201).send(toProductDto(product));
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
        response: { 200: v1ProductSchema, ...errorResponses },
      },
    },
    async (request) => toProductDto(await ownProduct(request, request.params.id)),
  );

  app.patch(
    '/api/v1/products/:id',
    {
      preHandler: app.requireApiScope('products:write'),
      schema: {
        summary: 'Update a product: only the fields sent change',
        description:
          '`files` is the whole new file list, in order (files uploaded with POST /api/v1/files); ' +
          '`fileId` names its preview source. To add one file, upload it with POST /api/v1/files ' +
          'and `productId` instead: uploads added at the same time are all kept, where two ' +
          'PATCHes of `files` at once keep the last.',
        tags,
        security,
        params: idParams,
        body: v1UpdateProductSchema,
        response: { 200: v1ProductSchema, ...errorResponses },
      },
    },
    async (request) => {
      // The same 404 as every other route for another seller's product, published or not (the
      // dashboard answers 403 for a published one it can see).
      await ownProduct(request, request.params.id);
      return toProductDto(
        await products.update(sellerOf(request), request.params.id, request.body),
      );
    },
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
          response: { 200: v1ProductSchema, ...errorResponses },
        },
      },
      async (request) => {
        await ownProduct(request, request.params.id);
        return toProductDto(await products.setStatus(sellerOf(request), request.params.id, status));
      },
    );
  }
}
