import { fileURLToPath } from 'node:url';
import { env } from '@lockdrop/config';
import { serviceEnv } from '@lockdrop/service';
import { z } from 'zod';

// src/config.ts and the bundled dist/main.js both sit three levels below the repository root.
const defaultDataDir = fileURLToPath(new URL('../../../.data/delivery', import.meta.url));
/** Development only: a production start without DOWNLOAD_SIGNING_KEY fails config validation. */
const DEV_DOWNLOAD_SIGNING_KEY = 'lockdrop-development-download-signing-key';
/**
 * Keys printed in this repository (the development default and the ones older compose files
 * shipped): anyone can read them, so anyone could mint download links with them.
 */
const PUBLISHED_DOWNLOAD_SIGNING_KEYS = new Set([
  DEV_DOWNLOAD_SIGNING_KEY,
  'compose-local-download-signing-key-change-me',
]);
const looksLikeAnExample = (key: string) =>
  PUBLISHED_DOWNLOAD_SIGNING_KEYS.has(key) || /change-?me|replace[_-]?me|example/i.test(key);

export const configSchema = z
  .object({
    ...serviceEnv(3004),
    /** `filesystem` for one replica (or a shared volume); `s3` for several replicas. */
    STORAGE_BACKEND: z.enum(['filesystem', 's3']).default('filesystem'),
    /** Root of the filesystem backend: uploaded files and preview images. */
    DATA_DIR: z.string().min(1).default(defaultDataDir),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    /** Any S3-compatible endpoint (MinIO, R2, Spaces); unset means AWS. */
    S3_ENDPOINT: z.url().optional(),
    /** Where buyers' browsers reach the bucket (signed download URLs), when not S3_ENDPOINT. */
    S3_PUBLIC_ENDPOINT: z.url().optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: env.boolean(false),
    /** Previews rendered at once per replica; rendering is CPU-bound, so about the core count. */
    PREVIEW_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** Debian's ffmpeg (`apt-get install ffmpeg`) renders video frames; absent: videos get a type card. */
    FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
    /**
     * Limits of the process each preview is rendered in (uploads are untrusted input). The
     * memory limit is RLIMIT_DATA, which counts what V8 reserves as well as what it uses: on
     * Node 24 a PDF render died at 1024 ("Failed to reserve virtual memory for CodeRange") and
     * renders at 2048, while its resident memory stays far lower (the container's limit bounds
     * that).
     */
    PREVIEW_MEMORY_MB: z.coerce.number().int().min(256).max(16_384).default(2048),
    PREVIEW_CPU_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
    /**
     * Stamping processes (buyers' PDF copies) at once per replica, each up to PREVIEW_MEMORY_MB;
     * on top of PREVIEW_CONCURRENCY's renders. About the core count, as for previews.
     */
    STAMP_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** Copies waiting for a stamping slot; past it a first download is answered copy_preparing (503). */
    STAMP_QUEUE_LIMIT: z.coerce.number().int().min(0).max(10_000).default(100),
    /** How long a download waits for its copy before it is answered copy_preparing (the copy goes on). */
    STAMP_WAIT_SECONDS: z.coerce.number().min(0.1).max(120).default(20),
    /**
     * Stamped copies kept in all (bytes, default 10 GiB): a cache of what the original can make
     * again, so past it the least recently served copies are removed, never a buyer refused.
     */
    STAMPED_COPIES_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .default(10 * 1024 ** 3),
    /** The search path handed to render processes (their only environment variable). */
    PATH: z.string().default('/usr/local/bin:/usr/bin:/bin'),
    /** Origin buyers reach the site at; https there makes the receipt-session cookie Secure. */
    PUBLIC_URL: env.url('http://localhost:8080'),
    /** HMAC key of `/dl/<token>` links (32+ characters, e.g. `openssl rand -base64 32`); rotating it voids issued links. */
    DOWNLOAD_SIGNING_KEY: z.string().min(32).default(DEV_DOWNLOAD_SIGNING_KEY),
    /**
     * Who sends a download's bytes once delivery has checked the link and the entitlement:
     * `none`, delivery itself (Node streams); `x-accel`, the nginx in front of delivery
     * (deploy/base/nginx/delivery-edge.conf, `X-Accel-Redirect`, sendfile), only with that nginx in
     * front: without it a buyer would get an empty answer; `s3-redirect`, the bucket itself,
     * through a presigned URL valid a minute (STORAGE_BACKEND=s3 only).
     */
    DOWNLOAD_OFFLOAD: z.enum(['none', 'x-accel', 's3-redirect']).default('none'),
    /** Download links one purchase may be given per rolling hour, so a leaked session cannot farm links. */
    DOWNLOAD_GRANTS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(30),
  })
  .refine(
    (config) =>
      config.NODE_ENV !== 'production' || !looksLikeAnExample(config.DOWNLOAD_SIGNING_KEY),
    {
      message: 'must be set in production to a private random value, not an example key',
      path: ['DOWNLOAD_SIGNING_KEY'],
    },
  )
  .refine(
    (config) => config.DOWNLOAD_OFFLOAD !== 's3-redirect' || config.STORAGE_BACKEND === 's3',
    {
      message: 'needs STORAGE_BACKEND=s3 (a redirect to the bucket needs a bucket)',
      path: ['DOWNLOAD_OFFLOAD'],
    },
  )
  .refine((config) => config.STORAGE_BACKEND !== 's3' || config.S3_BUCKET, {
    message: 'is required when STORAGE_BACKEND is s3',
    path: ['S3_BUCKET'],
  });
export type DeliveryConfig = z.infer<typeof configSchema>;
