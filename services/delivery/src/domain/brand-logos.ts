import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AuthUser } from '@lockdrop/auth';
import {
  avatarPath,
  brandLogoPath,
  type BrandLogo,
  type UploadedAvatar,
} from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { planById, PLANS } from '@lockdrop/plans';
import { findSellerPlan } from '@lockdrop/bus';
import { renderLogo } from '../previews/logo.js';
import { ObjectNotFoundError, type ObjectStorage } from '../storage/index.js';

/** A logo upload may be this large before it is re-encoded (a phone photo of a sign passes). */
export const LOGO_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

const BRANDING_PLAN = PLANS.find((plan) => plan.customBranding)!;

/**
 * Logos and avatars live beside previews in the same storage, keyed by account and content
 * hash, and go through the same resize and re-encode (previews/logo.ts): one image path.
 */
type ImageKind = 'brand-logos' | 'avatars';
const imageKey = (kind: ImageKind, ownerId: string, imageId: string) =>
  `${kind}/${ownerId}/${imageId}.png`;

/** Re-encodes `upload` and stores it; `what` words the refusal of a file that is no image. */
async function storeImage(
  storage: ObjectStorage,
  kind: ImageKind,
  ownerId: string,
  upload: Buffer,
  what: string,
) {
  let rendered;
  try {
    rendered = await renderLogo(upload);
  } catch {
    throw new AppError(
      'invalid_image',
      400,
      `${what} must be an image (PNG, JPEG, WebP, GIF or SVG)`,
    );
  }
  const imageId = createHash('sha256').update(rendered.image).digest('hex').slice(0, 32);
  await storage.put(imageKey(kind, ownerId, imageId), Readable.from([rendered.image]));
  return { imageId, width: rendered.width, height: rendered.height };
}

async function openImage(
  storage: ObjectStorage,
  kind: ImageKind,
  ownerId: string,
  imageId: string,
) {
  const key = imageKey(kind, ownerId, imageId);
  const stat = await storage.stat(key);
  if (!stat) return null;
  try {
    return { body: await storage.get(key), sizeBytes: stat.sizeBytes };
  } catch (error) {
    if (error instanceof ObjectNotFoundError) return null;
    throw error;
  }
}

export interface BrandLogos {
  store(user: AuthUser, upload: Buffer): Promise<BrandLogo>;
  /** The PNG, or null when this seller has no logo with that id. */
  open(sellerId: string, logoId: string): Promise<{ body: Readable; sizeBytes: number } | null>;
}

export function createBrandLogos({
  pool,
  storage,
}: {
  pool: Pool;
  storage: ObjectStorage;
}): BrandLogos {
  return {
    async store(user, upload) {
      const plan = planById((await findSellerPlan(pool, user.id)) ?? user.plan);
      if (!plan.customBranding) {
        throw new AppError(
          'plan_upgrade_required',
          403,
          `A logo comes with the ${BRANDING_PLAN.name} plan and above; you are on ${plan.name}`,
        );
      }
      const stored = await storeImage(storage, 'brand-logos', user.id, upload, 'The logo');
      return {
        logoId: stored.imageId,
        logoUrl: brandLogoPath(user.id, stored.imageId),
        width: stored.width,
        height: stored.height,
      };
    },

    open: (sellerId, logoId) => openImage(storage, 'brand-logos', sellerId, logoId),
  };
}

export interface Avatars {
  store(user: AuthUser, upload: Buffer): Promise<UploadedAvatar>;
  open(userId: string, imageId: string): Promise<{ body: Readable; sizeBytes: number } | null>;
}

/** Anyone's profile picture (no plan needed); identity then saves its path as `avatarUrl`. */
export function createAvatars({ storage }: { storage: ObjectStorage }): Avatars {
  return {
    async store(user, upload) {
      const stored = await storeImage(storage, 'avatars', user.id, upload, 'Your picture');
      return {
        avatarUrl: avatarPath(user.id, stored.imageId),
        width: stored.width,
        height: stored.height,
      };
    },
    open: (userId, imageId) => openImage(storage, 'avatars', userId, imageId),
  };
}
