import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, refetchOnWindowFocus: false, retry: false },
    },
  });
}

/** A query's answer the server rendered a page with; the page carries it for hydration. */
export interface RenderedQuery {
  queryKey: readonly unknown[];
  data: unknown;
}

/** The `<script type="application/json">` holding a rendered page's queries (never run). */
export const RENDERED_QUERIES_ID = 'ld-rendered-queries';

/**
 * Puts what the server rendered with into `client`, so the first render on each side sees the
 * same data. Marked as fetched long ago: once hydrated, the page asks again as it always did
 * (the read counts the view and brings the price in the buyer's currency).
 */
export function seedRenderedQueries(client: QueryClient, queries: RenderedQuery[]): void {
  for (const { queryKey, data } of queries) client.setQueryData(queryKey, data, { updatedAt: 0 });
}
