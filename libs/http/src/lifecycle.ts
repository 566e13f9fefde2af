import type { FastifyInstance } from 'fastify';

/**
 * Listens, then on SIGTERM/SIGINT closes the app: Fastify stops accepting, finishes in-flight
 * requests and runs every onClose hook (consumers drain, relay stops, pools close) before exit.
 * A second signal, or a close that hangs, exits at once.
 */
export async function runUntilSignalled(
  app: FastifyInstance,
  listen: { port: number; host: string },
): Promise<void> {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen(listen);
}
