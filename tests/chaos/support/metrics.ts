import type { Cluster, Replica, ServiceName } from './cluster';

/** How many requests one replica answered on `route` (from its Prometheus /metrics). */
export async function requestsServed(
  cluster: Cluster,
  service: ServiceName,
  replica: Replica,
  route: string,
): Promise<number> {
  const text = await (await fetch(`${cluster.replicaUrl(service, replica)}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n'))
    if (
      line.startsWith('http_request_duration_seconds_count{') &&
      line.includes(`route="${route}"`)
    )
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  return total;
}
