import { queryOptions, useQuery } from '@tanstack/react-query';

/** The gateway's readiness probe: 200 when it and the services behind it can serve requests. */
export async function getPlatformStatus(): Promise<'operational' | 'degraded'> {
  try {
    const response = await fetch('/readyz', { headers: { Accept: 'application/json' } });
    return response.ok ? 'operational' : 'degraded';
  } catch {
    return 'degraded';
  }
}

export const platformStatusQueryOptions = () =>
  queryOptions({ queryKey: ['platform', 'status'], queryFn: getPlatformStatus, staleTime: 30_000 });

export function usePlatformStatus() {
  return useQuery(platformStatusQueryOptions());
}
