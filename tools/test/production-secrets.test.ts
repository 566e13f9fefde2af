import { randomBytes } from 'node:crypto';
import { loadConfig } from '@lockdrop/config';
import { describe, expect, it } from 'vitest';
import { configSchema as analytics } from '../../services/analytics/src/config.js';
import { configSchema as catalog } from '../../services/catalog/src/config.js';
import { configSchema as delivery } from '../../services/delivery/src/config.js';
import { configSchema as gateway } from '../../services/gateway/src/config.js';
import { configSchema as identity } from '../../services/identity/src/config.js';
import { configSchema as payments } from '../../services/payments/src/config.js';
import { configSchema as worker } from '../../services/worker/src/config.js';
import { productionSecrets } from '../stack.mjs';

/**
 * The benchmark and the chaos suite run the stack in production mode with `productionSecrets()`.
 * When a service gains a secret production requires and this list does not, every chaos cluster
 * and benchmark fails to start (it happened twice); this says so in seconds, naming the setting.
 */
describe('productionSecrets()', () => {
  it('holds every secret each service requires in production', () => {
    const env = {
      ...productionSecrets(),
      NODE_ENV: 'production',
      // What the benchmark and the chaos cluster add: the sandbox as a demo, files on disk.
      ALLOW_TEST_PAYMENTS: 'true',
      SANDBOX_WEBHOOK_SECRET: randomBytes(24).toString('base64url'),
      DOWNLOAD_OFFLOAD: 'x-accel',
    };
    const schemas = { analytics, catalog, delivery, gateway, identity, payments, worker };
    const refused: string[] = [];
    for (const [service, schema] of Object.entries(schemas)) {
      try {
        loadConfig(schema, env);
      } catch (error) {
        refused.push(`${service}: ${(error as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
