import type { TokenVerifier } from '@lockdrop/auth';
import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import type { DeliveryConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { createPreviews } from './domain/previews.js';
import { createUploads } from './domain/uploads.js';
import { subscribeToProductEvents } from './events/product-events.js';
import { startPreviewWorker } from './previews/preview-worker.js';
import { previewRoutes } from './routes/previews.js';
import { uploadRoutes } from './routes/uploads.js';
import { createStorage, type ObjectStorage } from './storage/index.js';

export interface DeliveryDependencies {
  /** Tests sign their own tokens; by default tokens are verified against identity's JWKS. */
  verifier?: TokenVerifier;
  storage?: ObjectStorage;
}

/** Uploaded files, server-rendered previews, entitlements and signed downloads. */
export async function buildApp(config: DeliveryConfig, dependencies: DeliveryDependencies = {}): Promise<HttpServer> {
  const { app, infra } = await createServiceApp({ name: 'delivery', config, migrations, verifier: dependencies.verifier });
  const { pool, bus } = infra;
  const storage = dependencies.storage ?? (await createStorage(config));

  await app.register(uploadRoutes, { uploads: createUploads({ pool, storage, logger: app.log }) });
  await app.register(previewRoutes, { previews: createPreviews({ pool, storage }) });

  const worker = startPreviewWorker({ pool, storage, concurrency: config.PREVIEW_CONCURRENCY, logger: app.log });
  const subscriptions = await subscribeToProductEvents({ bus, pool, storage });
  // Registered after the infrastructure's hook, so it runs first: consumers and renders stop before the pool closes.
  app.addHook('onClose', async () => {
    await Promise.all(subscriptions.map((subscription) => subscription.stop()));
    await worker.stop();
  });
  return app;
}
