import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AuthUser } from '@lockdrop/auth';
import { brandLogoPath, type BrandLogo } from '@lockdrop/contracts';
import type { Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { planById, PLANS } from '@lockdrop/plans';
import { findSellerPlan } from '@lockdrop/bus';
import { renderLogo } from '../previews/logo.js';
import { ObjectNotFoundError, type ObjectStorage } from '../storage/index.js';

/** A logo upload may be this large before it is re-encoded (a phone photo of a sign passes). */
export const LOGO_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;

const BRANDING_PLAN = PLANS.find((plan) => plan.customBranding)!;

/** Logos live beside previews in the same storage, keyed by seller and content hash. */
const logoKey = (sellerId: string, logoId: string) => `brand-logos/${sellerId}/${logoId}.png`;

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
      let rendered;
      try {
        rendered = await renderLogo(upload);
      } catch {
        throw new AppError(
          'invalid_image',
          400,
          'The logo must be an image (PNG, JPEG, WebP, GIF or SVG)',
        );
      }
      const logoId = createHash('sha256').update(rendered.image).digest('hex').slice(0, 32);
      await storage.put(logoKey(user.id, logoId), Readable.from([rendered.image]));
      return {
        logoId,
        logoUrl: brandLogoPath(user.id, logoId),
        width: rendered.width,
        height: rendered.height,
      };
    },

    async open(sellerId, logoId) {
      const key = logoKey(sellerId, logoId);
      const stat = await storage.stat(key);
      if (!stat) return null;
      try {
        return { body: await storage.get(key), sizeBytes: stat.sizeBytes };
      } catch (error) {
        if (error instanceof ObjectNotFoundError) return null;
        throw error;
      }
    },
  };
}
