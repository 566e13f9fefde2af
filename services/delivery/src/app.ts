import type { TokenVerifier } from '@lockdrop/auth';
import { subscribeToPlanChanges } from '@lockdrop/bus';
import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { DeliveryConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { createAvatars, createBrandLogos } from './domain/brand-logos.js';
import { createCompletionLog } from './domain/completion-log.js';
import { createDownloadService } from './domain/downloads.js';
import { createPreviewService } from './domain/previews.js';
import { createProductAttachments } from './domain/product-attachments.js';
import { createReceiptSessionService } from './domain/receipt-sessions.js';
import { createStampQueue } from './domain/stamp-queue.js';
import { createStampedCopies } from './domain/stamped-copies.js';
import { createUploadService } from './domain/uploads.js';
import { subscribeToProductEvents } from './events/products.consumer.js';
import { subscribeToPurchaseEvents } from './events/purchases.consumer.js';
import { findFfmpeg } from './previews/video.js';
import { startPreviewWorker } from './previews/preview-worker.js';
import { avatarRoutes, brandLogoRoutes } from './routes/brand-logos.js';
import { downloadRoutes } from './routes/downloads.js';
import { previewRoutes } from './routes/previews.js';
import { uploadRoutes } from './routes/uploads.js';
import { createStorage, type ObjectStorage } from './storage/index.js';
import { pruneExpiredAccess } from './db/retention.repo.js';

/** How long an API upload naming a product waits for catalog's word (it answers from one row). */
const CATALOG_ANSWER_TIMEOUT_MS = 5_000;

export interface DeliveryDependencies {
  /** Tests sign their own tokens; by default tokens are verified against identity's JWKS. */
  verifier?: TokenVerifier;
  storage?: ObjectStorage;
  /** Link expiry and receipt sessions read this clock; tests move it. */
  now?: () => Date;
}

/** Uploaded files, server-rendered previews, entitlements and signed downloads. */
export async function buildApp(
  config: DeliveryConfig,
  dependencies: DeliveryDependencies = {},
): Promise<HttpServer> {
  const { app, infra } = await createServiceApp({
    name: 'delivery',
    config,
    migrations,
    verifier: dependencies.verifier,
    prune: pruneExpiredAccess,
  });
  const { pool, bus } = infra;
  const storage = dependencies.storage ?? (await createStorage(config));
  const now = dependencies.now ?? (() => new Date());

  const renderLimits = {
    memoryMb: config.PREVIEW_MEMORY_MB,
    cpuSeconds: config.PREVIEW_CPU_SECONDS,
    // Twice the CPU budget: a render waiting on disk is slow, one that sleeps is stuck.
    timeoutMs: config.PREVIEW_CPU_SECONDS * 2_000,
    searchPath: config.PATH,
  };
  const stampQueue = createStampQueue({
    concurrency: config.STAMP_CONCURRENCY,
    maxQueued: config.STAMP_QUEUE_LIMIT,
    maxWaitMs: config.STAMP_WAIT_SECONDS * 1000,
  });
  const stampedCopies = createStampedCopies({
    pool,
    storage,
    limits: renderLimits,
    queue: stampQueue,
    maxStoredBytes: config.STAMPED_COPIES_MAX_BYTES,
    logger: app.log,
  });
  uploadRoutes(app, {
    uploads: createUploadService({ pool, storage, logger: app.log }),
    stampedCopies,
    attachments: createProductAttachments({ bus, timeoutMs: CATALOG_ANSWER_TIMEOUT_MS }),
  });
  previewRoutes(app, { previews: createPreviewService({ pool, storage }) });
  brandLogoRoutes(app, { logos: createBrandLogos({ pool, storage }) });
  avatarRoutes(app, { avatars: createAvatars({ storage }) });
  const completions = new Set<Promise<void>>();
  const completionLog = createCompletionLog({ db: pool });
  downloadRoutes(app, {
    downloads: createDownloadService({
      pool,
      storage,
      signingKey: config.DOWNLOAD_SIGNING_KEY,
      grantsPerHour: config.DOWNLOAD_GRANTS_PER_HOUR,
      now,
      stampedCopies,
      completions: completionLog,
    }),
    receiptSessions: createReceiptSessionService({ pool, now }),
    secureCookies: config.PUBLIC_URL.startsWith('https:'),
    offload: config.DOWNLOAD_OFFLOAD,
    track(work) {
      const tracked = work
        .catch((error: unknown) =>
          app.log.error({ err: error }, 'could not record a completed download'),
        )
        .finally(() => completions.delete(tracked));
      completions.add(tracked);
    },
  });

  const ffmpegPath = findFfmpeg(config.FFMPEG_PATH);
  if (!ffmpegPath)
    app.log.warn({ ffmpeg: config.FFMPEG_PATH }, 'ffmpeg not found: videos get a type card');
  const worker = startPreviewWorker({
    pool,
    storage,
    concurrency: config.PREVIEW_CONCURRENCY,
    logger: app.log,
    render: { ffmpegPath, ...renderLimits },
  });
  const subscriptions = [
    ...(await subscribeToProductEvents({ bus, pool, storage })),
    ...(await subscribeToPurchaseEvents({ bus, pool, storage })),
    await subscribeToPlanChanges({ bus, pool, consumer: 'delivery.plans' }),
  ];
  // Registered after the infrastructure's hook, so it runs first: consumers and renders stop before the pool closes.
  app.addHook('onClose', async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    await worker.stop();
    await stampQueue.close();
    // What is pending is written now rather than at the end of its window; a download that
    // finishes meanwhile starts a group of its own, which `completions` waits for.
    await completionLog.close();
    await Promise.all(completions);
  });
  return app;
}
