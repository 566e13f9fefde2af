import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3 } from 'openapi-types';
import type { Upstream } from '../route-table.js';

const DOCS_TTL_MS = 60_000;

/**
 * `/api/docs`: one API reference merged from every service's own `/openapi.json`, so the
 * docs are generated from the same zod schemas that validate requests.
 */
export async function registerApiDocs(
  app: FastifyInstance,
  upstreams: Record<Upstream, string>,
): Promise<void> {
  let merged: OpenAPIV3.Document = emptyDocument();
  // One merge (five upstream requests) per minute at most, however often the docs are fetched.
  let fresh: { until: number; merging: Promise<OpenAPIV3.Document> } | undefined;
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/docs/json')) return;
    if (!fresh || Date.now() > fresh.until)
      fresh = { until: Date.now() + DOCS_TTL_MS, merging: mergeSpecs(upstreams) };
    merged = await fresh.merging;
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformSpecification: () => merged,
    transformSpecificationClone: false,
  });
}

function emptyDocument(): OpenAPIV3.Document {
  return {
    openapi: '3.0.3',
    info: { title: 'Lockdrop API', version: '1.0.0' },
    paths: {},
    components: {},
  };
}

export async function mergeSpecs(upstreams: Record<Upstream, string>): Promise<OpenAPIV3.Document> {
  const specs: [string, OpenAPIV3.Document][] = [];
  const unavailable: string[] = [];
  await Promise.all(
    Object.entries(upstreams).map(async ([service, baseUrl]) => {
      try {
        const response = await fetch(new URL('/openapi.json', baseUrl), {
          signal: AbortSignal.timeout(2_000),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        specs.push([service, (await response.json()) as OpenAPIV3.Document]);
      } catch {
        unavailable.push(service);
      }
    }),
  );
  const merged = mergeDocuments(specs);
  if (unavailable.length)
    merged.info.description = `Not reachable right now: ${unavailable.sort().join(', ')}.`;
  return merged;
}

/**
 * The services' own documents as one: their paths (an operation without tags is tagged with its
 * service), schemas and security schemes. `npm run api:types` merges with this too, so the
 * generated client is typed from the document /api/docs serves.
 */
export function mergeDocuments(specs: [service: string, OpenAPIV3.Document][]): OpenAPIV3.Document {
  const merged = emptyDocument();
  // Sorted, so the result does not depend on which upstream answered first.
  for (const [service, spec] of [...specs].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [route, item] of Object.entries(spec.paths ?? {})) {
      merged.paths[route] = tagOperations(item, service);
    }
    merged.components = {
      ...merged.components,
      schemas: { ...merged.components?.schemas, ...spec.components?.schemas },
      securitySchemes: {
        ...merged.components?.securitySchemes,
        ...spec.components?.securitySchemes,
      },
    };
  }
  return merged;
}

function tagOperations(
  item: OpenAPIV3.PathItemObject | undefined,
  service: string,
): OpenAPIV3.PathItemObject {
  const tagged: Record<string, unknown> = {};
  for (const [method, operation] of Object.entries(item ?? {})) {
    tagged[method] =
      operation && typeof operation === 'object' && !Array.isArray(operation)
        ? { ...operation, tags: (operation as OpenAPIV3.OperationObject).tags ?? [service] }
        : operation;
  }
  return tagged as OpenAPIV3.PathItemObject;
}
