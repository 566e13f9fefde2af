import { connectBus, type Bus, type Logger, type Watch, type WatchOptions } from '@lockdrop/bus';
import { createProductReads, PRODUCT_READ_CHANGES, type ProductReads } from './product-reads.js';
import { createViewBatches, type ViewBatches } from './view-batches.js';

export interface Storefront {
  reads: ProductReads;
  views: ViewBatches;
  close(): Promise<void>;
}

const RECONNECT_DELAY_MS = 2_000;

/**
 * The gateway's part of the storefront: product reads kept fresh by product events, and view
 * batches for catalog, both over the bus. Without the bus the gateway still serves every page:
 * reads go to catalog each time and views wait in memory until the connection is made.
 */
export async function startStorefront({
  natsUrl,
  namespace,
  catalogUrl,
  logger,
  alsoWatch = [],
}: {
  /** Other caches of the gateway fed by the same connection (API-key revocations). */
  alsoWatch?: WatchOptions[];
  natsUrl: string;
  namespace: string;
  catalogUrl: string;
  logger: Logger;
}): Promise<Storefront> {
  let bus: Bus | null = null;
  let watch: Watch | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const reads = createProductReads({ catalogUrl, isLive: () => watch?.live ?? false });
  const views = createViewBatches({
    publish: async (event) => {
      if (!bus) throw new Error('the bus is not connected yet');
      await bus.publish(event);
    },
    logger,
  });

  async function connect(): Promise<void> {
    try {
      const connected = await connectBus({
        url: natsUrl,
        namespace,
        name: 'gateway',
        logger,
        // The gateway's NATS user may touch no stream (libs/bus permissions.ts): services make them.
        manageStreams: false,
      });
      if (closed) {
        await connected.close();
        return;
      }
      bus = connected;
      watch = connected.watch({
        filters: [...PRODUCT_READ_CHANGES],
        onEvent: (event) => reads.onEvent(event),
        onGap: () => reads.forgetAll(),
      });
      for (const options of alsoWatch) connected.watch(options);
    } catch (error) {
      logger.warn(
        { err: error },
        'bus unreachable; storefront reads go to catalog until it is back',
      );
      if (!closed) retry = setTimeout(() => void connect(), RECONNECT_DELAY_MS);
    }
  }
  await connect();

  return {
    reads,
    views,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await views.stop();
      await bus?.close();
    },
  };
}
