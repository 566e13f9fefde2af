export { createTestDatabase, type SchemaMigrations, type TestDatabase } from './database.js';
export { startTestIssuer, type TestAccount, type TestIssuer } from './issuer.js';
export { processedBy, waitFor, waitUntil } from './wait.js';
export { serviceTestEnv, testNamespace, testEnv } from './env.js';
export { deleteStreams } from './streams.js';
export { freePort, nginxAvailable, startNginxEdge, type NginxEdge } from './nginx-edge.js';
export { s3StorageEnv, startS3Server, type S3TestServer } from './s3-server.js';
export {
  productSnapshotData,
  purchasePaidAfterPending,
  purchasePaidData,
  purchasePendingData,
  purchaseRefundedData,
  testEvent,
} from './events.js';
export {
  chargeInSandbox,
  sandboxWebhookHeaders,
  type SandboxNotification,
} from './sandbox-provider.js';
export { pdfDocument, pdfPageTexts } from './pdf.js';
export {
  startWebhookReceiver,
  type ReceivedWebhook,
  type ReceiverBehaviour,
  type WebhookReceiver,
} from './webhook-receiver.js';
export {
  startFakeDns,
  type FakeDns,
  type FakeDnsBehaviour,
  type FakeDnsRecord,
} from './fake-dns.js';
export { caddyAvailable, startCaddyEdge, type CaddyEdge } from './caddy-edge.js';
