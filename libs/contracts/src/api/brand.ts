import { z } from 'zod';
import { planIdSchema } from '../shared.js';

/** A store's handle: its address `/s/<handle>`. Lowercase letters, digits, inner hyphens. */
export const STORE_HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,29}$/;

/** Accent colours are six-digit hex (`#1d4ed8`), compared against white for WCAG AA. */
export const ACCENT_COLOUR_PATTERN = /^#[0-9a-f]{6}$/;

/** A logo's id: the first 32 hex digits of the SHA-256 of its re-encoded PNG (delivery makes it). */
export const LOGO_ID_PATTERN = /^[a-f0-9]{32}$/;

/** Path of a stored logo; delivery serves it, public and immutable. */
export function brandLogoPath(sellerId: string, logoId: string): string {
  return `/api/brand-logos/${sellerId}/${logoId}.png`;
}

/** What buyers see of a store's brand (null everywhere when the seller's plan has no branding). */
export const publicBrandSchema = z.object({
  handle: z.string(),
  name: z.string(),
  /** Root-relative path of the logo image, or null when the seller uploaded none. */
  logoUrl: z.string().nullable(),
  accentColour: z.string().nullable(),
});
export type PublicBrand = z.infer<typeof publicBrandSchema>;

/** PUT /api/brand: the whole brand at once. Shape only; catalog checks the rules (reserved, contrast). */
export const updateBrandSchema = z.object({
  handle: z.string().trim().toLowerCase().min(1).max(64),
  name: z.string().trim().min(1).max(80),
  accentColour: z.string().trim().toLowerCase().max(16).nullable().default(null),
  logoId: z.string().max(64).nullable().default(null),
});
export type UpdateBrandInput = z.infer<typeof updateBrandSchema>;

/** GET /api/brand: the seller's own brand settings and whether their plan shows them. */
export const brandSettingsSchema = z.object({
  brand: publicBrandSchema.extend({ logoId: z.string().nullable() }).nullable(),
  plan: planIdSchema,
  /** The plan shows the brand to buyers; otherwise the plain Lockdrop look is used. */
  brandingIncluded: z.boolean(),
  /** The cheapest plan that includes branding, for the screen's "unlocked by" line. */
  brandingPlan: planIdSchema,
});
export type BrandSettings = z.infer<typeof brandSettingsSchema>;

/** POST /api/brand-logos (delivery): the stored, re-encoded logo. */
export const brandLogoSchema = z.object({
  logoId: z.string(),
  logoUrl: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type BrandLogo = z.infer<typeof brandLogoSchema>;

/** GET /api/stores/:handle: the public store page, the seller's published products. */
export const storePageSchema = z.object({
  handle: z.string(),
  /** Null when the seller's plan does not include branding: the page uses the Lockdrop look. */
  brand: publicBrandSchema.nullable(),
  /** The host of the store's verified custom domain (issue 28), or null: its canonical home. */
  domain: z.string().nullable().default(null),
  products: z.array(
    z.object({
      id: z.uuid(),
      title: z.string(),
      description: z.string().nullable(),
      priceFormatted: z.string(),
      pricing: z.object({
        type: z.enum(['one_time', 'recurring']),
        interval: z.string().optional(),
      }),
      previewEnabled: z.boolean(),
      fileKind: z.string(),
    }),
  ),
});
export type StorePage = z.infer<typeof storePageSchema>;
