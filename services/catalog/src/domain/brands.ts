import type { AuthUser } from '@lockdrop/auth';
import { findSellerPlan } from '@lockdrop/bus';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { PLANS, planById } from '@lockdrop/plans';
import {
  brandLogoPath,
  LOGO_ID_PATTERN,
  type BrandSettings,
  type PublicBrand,
  type UpdateBrandInput,
} from '@lockdrop/contracts';
import type { LogoDirectory } from '../adapters/delivery-logos.js';
import {
  findBrandByHandle,
  findBrandOf,
  saveBrand,
  findBrandAndNameOf,
  type StoreBrandRow,
} from '../db/brands.repo.js';
import { enqueueBrandSaved, enqueueBrandUpdated } from '../events/brands.producer.js';
import { checkAccentColour, checkHandle } from './brand-rules.js';

/** The cheapest plan whose table row includes branding (Pro today): the screen names it. */
export const BRANDING_PLAN = PLANS.find((plan) => plan.customBranding)!.id;

const toPublic = (
  row: Pick<StoreBrandRow, 'sellerId' | 'handle' | 'name' | 'logoId' | 'accentColour'>,
): PublicBrand => ({
  handle: row.handle,
  name: row.name,
  logoUrl: row.logoId ? brandLogoPath(row.sellerId, row.logoId) : null,
  accentColour: row.accentColour,
});

/** The brand buyers see, or null: none saved, or the seller's plan does not include branding. */
const shownBrand = (row: StoreBrandRow | null): PublicBrand | null =>
  row && planById(row.plan).customBranding ? toPublic(row) : null;

/**
 * The host the store's pages call canonical: its verified custom domain while the plan serves
 * one (as the gateway's routing decides, domains.ts `route`), else null (Lockdrop's address).
 */
const servedDomain = (row: StoreBrandRow | null): string | null =>
  row?.verifiedDomain && planById(row.verifiedDomain.plan).customDomain
    ? row.verifiedDomain.host
    : null;

/** What buyers see of a store on its pages: the brand, and the domain they are canonical on. */
export interface ShownStore {
  brand: PublicBrand | null;
  domain: string | null;
}

export interface BrandService {
  settings(user: AuthUser): Promise<BrandSettings>;
  /** `client`: where the request came from, for the store's audit log (issue 28). */
  save(
    seller: {
      user: AuthUser;
      requestId: string;
      client?: { ip: string | null; userAgent: string | null };
    },
    input: UpdateBrandInput,
  ): Promise<BrandSettings>;
  /**
   * What buyers see of `sellerId`'s store on product, checkout and share pages, and the name
   * they see for the seller (store name, else full name, or null).
   */
  shownStoreOf(sellerId: string): Promise<ShownStore & { sellerName: string | null }>;
  /** The store behind `/s/<handle>`, with its brand only when the plan shows it. */
  storeByHandle(handle: string): Promise<({ sellerId: string } & ShownStore) | null>;
}

export function createBrandService({
  pool,
  logos,
}: {
  pool: Pool;
  logos: LogoDirectory;
}): BrandService {
  async function currentPlan(user: AuthUser) {
    return planById((await findSellerPlan(pool, user.id)) ?? user.plan);
  }

  async function settingsOf(user: AuthUser): Promise<BrandSettings> {
    const [row, plan] = await Promise.all([findBrandOf(pool, user.id), currentPlan(user)]);
    return {
      brand: row ? { ...toPublic(row), logoId: row.logoId } : null,
      plan: plan.id,
      brandingIncluded: plan.customBranding,
      brandingPlan: BRANDING_PLAN,
    };
  }

  return {
    settings: settingsOf,

    async save({ user, requestId, client }, input) {
      const plan = await currentPlan(user);
      if (!plan.customBranding) {
        throw new AppError(
          'plan_upgrade_required',
          403,
          `Your own brand comes with the ${planById(BRANDING_PLAN).name} plan and above; you are on ${plan.name}`,
        );
      }
      const handle = checkHandle(input.handle);
      const accentColour = checkAccentColour(input.accentColour);
      if (input.logoId !== null) {
        if (
          !LOGO_ID_PATTERN.test(input.logoId) ||
          !(await logos.exists(user.id, input.logoId, requestId))
        ) {
          throw new AppError(
            'logo_not_found',
            400,
            'Upload the logo again; that one was not found',
          );
        }
      }
      const row = {
        sellerId: user.id,
        handle,
        name: input.name,
        logoId: input.logoId,
        accentColour,
      };
      try {
        await withTransaction(pool, async (tx) => {
          await saveBrand(tx, { ...row, planAtSave: plan.id });
          await enqueueBrandUpdated(tx, user.id, toPublic(row), requestId);
          await enqueueBrandSaved(tx, user, row, client ?? null, requestId);
        });
      } catch (error) {
        if ((error as { code?: string }).code === '23505') {
          throw new AppError(
            'handle_taken',
            409,
            `The handle "${handle}" is taken; choose another`,
          );
        }
        throw error;
      }
      return settingsOf(user);
    },

    async shownStoreOf(sellerId) {
      const { brand: row, sellerName } = await findBrandAndNameOf(pool, sellerId);
      return { brand: shownBrand(row), domain: servedDomain(row), sellerName };
    },

    async storeByHandle(handle) {
      const row = await findBrandByHandle(pool, handle.toLowerCase());
      return row
        ? { sellerId: row.sellerId, brand: shownBrand(row), domain: servedDomain(row) }
        : null;
    },
  };
}
