import type { HttpServer } from '@lockdrop/http';
import { createServiceApp } from '@lockdrop/service';
import { subscribeToPlanChanges } from '@lockdrop/bus';
import { deliveryLogos } from './adapters/delivery-logos.js';
import { deliveryUploads } from './adapters/delivery-uploads.js';
import { maxRateAgeHours, type CatalogConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { createProductCache } from './db/product-cache.js';
import { createBrandService } from './domain/brands.js';
import { createProductService } from './domain/products.js';
import { serveFileAttachments } from './events/file-attachments.consumer.js';
import { subscribeToFxRates } from './events/fx-rates.consumer.js';
import { subscribeToSellerNames } from './events/seller-names.consumer.js';
import { subscribeToStorefrontViews } from './events/storefront-views.consumer.js';
import { brandRoutes } from './routes/brand.js';
import { currencyRoutes } from './routes/currencies.js';
import { apiV1ProductRoutes } from './routes/api-v1-products.js';
import { productRoutes } from './routes/products.js';

export interface CatalogDeps {
  /** The day a product view is counted on, and the age of exchange rates, follow this clock. */
  now?: () => Date;
  /** Where new product ids come from (default: random uuids); tests make them collide. */
  newProductId?: () => string;
}

/** Products, prices, platform settings and exchange rates. */
export async function buildApp(config: CatalogConfig, deps: CatalogDeps = {}): Promise<HttpServer> {
  const { app, infra } = await createServiceApp({ name: 'catalog', config, migrations });
  const now = deps.now ?? (() => new Date());
  const cache = createProductCache({ pool: infra.pool, logger: app.log });
  await cache.start();
  app.addHook('preClose', () => cache.stop());
  const brands = createBrandService({
    pool: infra.pool,
    logos: deliveryLogos(config.DELIVERY_URL),
  });
  const products = createProductService({
    pool: infra.pool,
    uploads: deliveryUploads(config.DELIVERY_URL),
    now,
    cache,
    maxRateAgeHours: maxRateAgeHours(config),
    ...(deps.newProductId ? { newProductId: deps.newProductId } : {}),
  });
  productRoutes(app, products, brands);
  brandRoutes(app, brands, infra.pool);
  apiV1ProductRoutes(app, products);
  currencyRoutes(app, infra.pool, now);
  serveFileAttachments(infra.bus, products);
  await subscribeToFxRates(infra.bus, infra.pool);
  await subscribeToStorefrontViews(infra.bus, infra.pool);
  await subscribeToSellerNames(infra.bus, infra.pool);
  await subscribeToPlanChanges({ bus: infra.bus, pool: infra.pool, consumer: 'catalog.plans' });
  return app;
}
