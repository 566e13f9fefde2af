/** A product as catalog returns it (services/catalog/src/routes/schemas.ts). */
import type { FileKind, ProductStatus } from '@lockdrop/contracts';

export type { FileKind, ProductStatus };
export type Pricing = { type: 'one_time' } | { type: 'recurring'; interval: 'monthly' | 'yearly' };

export interface Product {
  id: string;
  ownerId: string;
  title: string;
  description: string | null;
  priceMinor: number;
  currency: string;
  /** Exact decimal in major units ("19.99"). */
  price: string;
  priceFormatted: string;
  pricing: Pricing;
  status: ProductStatus;
  fileId: string;
  fileName: string;
  fileSizeBytes: number;
  fileKind: FileKind;
  previewEnabled: boolean;
  previewBlurPercentage: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

/** The price in the currency the visitor asked for. */
export interface PriceDisplay {
  amountMinor: number;
  currency: string;
  amount: string;
  formatted: string;
  converted: boolean;
  warning: { code: 'exchange_rate_missing'; message: string } | null;
}

export interface ProductDetail extends Product {
  viewerIsOwner: boolean;
  display: PriceDisplay;
}

/** What a create or edit form sends. */
export interface ProductInput {
  title: string;
  description: string | null;
  price: string;
  currency: string;
  fileId: string | null;
  previewEnabled: boolean;
  previewBlurPercentage: number;
  pricing: Pricing;
}
