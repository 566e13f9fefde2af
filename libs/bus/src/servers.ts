/** `nats://a:4222,nats://b:4222` → each server, so the client can start from any one that answers. */
export function serverList(url: string): string[] {
  return url
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** BUS_STREAM_REPLICAS (see @lockdrop/config's busEnv), read here so every service gets it. */
export function streamReplicasFromEnv(
  env: Record<string, string | undefined> = process.env,
): number {
  const raw = env.BUS_STREAM_REPLICAS?.trim();
  if (!raw) return 1;
  const replicas = Number(raw);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 5)
    throw new Error(
      `BUS_STREAM_REPLICAS: must be a whole number from 1 to 5 (got ${JSON.stringify(raw)})`,
    );
  return replicas;
}
