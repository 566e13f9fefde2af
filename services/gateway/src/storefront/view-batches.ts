import { MAX_VIEWS_PER_BATCH, createEvent, type DomainEvent } from '@lockdrop/contracts';

export interface StorefrontView {
  productId: string;
  visitorId: string;
  referrer: string | null;
  viewedAt: string;
  requestId: string;
}

interface Logger {
  warn(object: object, message: string): void;
}

export interface ViewBatches {
  /** Queues the view unless this visitor's view of the product today is already queued or sent. */
  add(view: StorefrontView): void;
  /** Sends what is queued (also on a timer); views stay queued while sending fails. */
  flush(): Promise<void>;
  /** Stops the timer after a last flush. */
  stop(): Promise<void>;
}

/** Visitor/product pairs remembered per UTC day, and views held while the bus is unreachable. */
const MAX_REMEMBERED = 200_000;
const MAX_QUEUED = 50_000;

/**
 * Views of reads the gateway answered itself go to catalog as `storefront.products_viewed`
 * batches: one JetStream publish per `flushMs` instead of a transaction per read. Catalog's
 * table key still decides "once per product, visitor and UTC day"; the set here only keeps a
 * crowd's repeat reads off the bus. A crash loses at most the last `flushMs` of views.
 */
export function createViewBatches({
  publish,
  logger,
  flushMs = 250,
}: {
  publish: (event: DomainEvent) => Promise<void>;
  logger: Logger;
  flushMs?: number;
}): ViewBatches {
  let day = '';
  const remembered = new Set<string>();
  let queued: StorefrontView[] = [];
  let sending: Promise<void> | null = null;
  let droppedSinceWarning = 0;

  async function send(): Promise<void> {
    while (queued.length > 0) {
      const batch = queued.slice(0, MAX_VIEWS_PER_BATCH);
      try {
        await publish(
          createEvent(
            'storefront.products_viewed',
            { views: batch },
            { correlationId: batch[0]!.requestId },
          ),
        );
      } catch (error) {
        logger.warn({ err: error, queued: queued.length }, 'views not sent yet; retrying');
        return;
      }
      queued = queued.slice(batch.length);
    }
  }

  const flush = async () => {
    if (!sending) sending = send().finally(() => (sending = null));
    await sending;
  };
  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    add(view) {
      const today = view.viewedAt.slice(0, 10);
      if (today !== day) {
        day = today;
        remembered.clear();
      }
      const key = `${view.productId}|${view.visitorId}`;
      if (remembered.has(key)) return;
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.add(key);
      if (queued.length >= MAX_QUEUED) {
        droppedSinceWarning += 1;
        if (droppedSinceWarning === 1)
          logger.warn(
            { queued: queued.length },
            'view queue full; dropping views until the bus is back',
          );
        return;
      }
      droppedSinceWarning = 0;
      queued.push(view);
      if (queued.length >= MAX_VIEWS_PER_BATCH) void flush();
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
