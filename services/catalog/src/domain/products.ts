import type { AuthUser } from '@lockdrop/auth';
import { withTransaction, type Pool, type Queryable } from '@lockdrop/db';
import { AppError, errors } from '@lockdrop/http';
import type { OwnUpload, UploadDirectory } from '../adapters/delivery-uploads.js';
import {
  findProduct,
  insertProduct,
  listProductsOf,
  markProductDeleted,
  pageProductsOf,
  productIdByShortId,
  saveProduct,
} from '../db/products.repo.js';
import {
  enqueueFilesAdded,
  enqueueProductDeleted,
  enqueueProductEvent,
} from '../events/products.producer.js';
import {
  DEFAULT_CURRENCY,
  exchangeRates,
  priceIn,
  requireSupported,
  supportedCurrencies,
} from './currencies.js';
import { minimumToMinor, priceToMinor, repriceInCurrency } from './price.js';
import {
  BUYER_UPDATE_INTERVAL_MINUTES,
  MAX_FILES_PER_PRODUCT,
  type CommandReply,
  type CreateProductInput,
  type PriceDisplay,
  type UpdateProductInput,
  SHORT_ID,
  shortIdOf,
} from '@lockdrop/contracts';
import {
  filesAdded,
  isVisibleTo,
  snapshotOf,
  withFiles,
  type Product,
  type ProductFile,
  type ProductStatus,
} from './product.js';
import { createViewCounter, type Visit } from './product-views.js';
import type { ProductCache } from '../db/product-cache.js';

/** The signed-in seller, with the token delivery needs to answer "is this upload yours?". */
export interface Seller {
  user: AuthUser;
  accessToken: string;
  requestId: string;
}

/** Catalog's answer to delivery about attaching a file to a product (libs/contracts commands). */
export type AttachOutcome = CommandReply<'products.attach_file'>;

export interface ProductDetail {
  product: Product;
  viewerIsOwner: boolean;
  display: PriceDisplay;
  /** Pay what you want: the minimum in the display currency. */
  displayMinimum: PriceDisplay | null;
}

export interface ProductServiceDeps {
  pool: Pool;
  uploads: UploadDirectory;
  now: () => Date;
  /** Public reads come from here (memory, invalidated by every write's notification). */
  cache: Pick<ProductCache, 'get' | 'forget'>;
  /** Rates published longer ago than this are not used for display (0: no bound). */
  maxRateAgeHours?: number;
  /** Where new product ids come from (tests give colliding ones; see unusedProductId). */
  newProductId?: () => string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const missingFields = () =>
  new AppError('missing_fields', 400, 'Please fill in all required fields');
const fileRequired = () =>
  new AppError('file_required', 400, 'Please upload a file for your product');
const fileNotFound = () =>
  new AppError(
    'file_not_found',
    400,
    'We could not find that upload in your files; please upload it again',
  );
const productNotFound = () => errors.notFound('product_not_found', 'Product not found');
const duplicateFile = () =>
  new AppError('duplicate_file', 400, 'Each file can be in the list only once');
const previewNotListed = () =>
  new AppError(
    'preview_file_not_listed',
    400,
    "The preview file must be one of the product's files",
  );
const nothingToTell = () =>
  new AppError('nothing_to_tell', 400, 'Tell my buyers goes with a new or replaced file');
const BUYER_UPDATE_INTERVAL_MS = BUYER_UPDATE_INTERVAL_MINUTES * 60_000;

const asProductFile = (upload: OwnUpload): ProductFile => ({
  fileId: upload.id,
  fileName: upload.fileName,
  sizeBytes: upload.sizeBytes,
  kind: upload.kind,
});

/**
 * The file list and preview source a PATCH asks for, from the product's current files and the
 * seller's uploads it newly names (`uploads`, by lower-case id):
 * - `files` replaces the whole list, and `fileId` picks its preview source (default: the
 *   current one when it stays, else the first);
 * - `fileId` alone swaps the preview-source file for that upload, in its place.
 */
function fileListFor(
  product: Product,
  input: Pick<UpdateProductInput, 'files' | 'fileId'>,
  uploads: Map<string, ProductFile>,
): { files: ProductFile[]; previewFileId: string } {
  const known = (id: string) => {
    const key = id.trim().toLowerCase();
    const file =
      product.files.find((current) => current.fileId.toLowerCase() === key) ?? uploads.get(key);
    if (!file) throw fileNotFound();
    return file;
  };
  if (input.files) {
    const files = input.files.map(({ fileId }) => known(fileId));
    if (new Set(files.map((file) => file.fileId)).size !== files.length) throw duplicateFile();
    const preview = input.fileId ? known(input.fileId) : undefined;
    if (preview && !files.includes(preview)) throw previewNotListed();
    const previewFileId =
      preview?.fileId ??
      (files.some((file) => file.fileId === product.fileId) ? product.fileId : files[0]!.fileId);
    return { files, previewFileId };
  }
  if (!input.fileId) return { files: product.files, previewFileId: product.fileId };
  const replacement = known(input.fileId);
  if (product.files.includes(replacement))
    return { files: product.files, previewFileId: replacement.fileId };
  return {
    files: product.files.map((file) => (file.fileId === product.fileId ? replacement : file)),
    previewFileId: replacement.fileId,
  };
}

const isBlank = (value: string | number | null | undefined) =>
  value === undefined || value === null || String(value).trim() === '';

/**
 * The pay-what-you-want minimum a product ends up with: `requested` when the seller sent one
 * (null turns it off), else the current one. Only one-time prices let the buyer choose.
 */
function minimumFor(
  requested: string | number | null | undefined,
  current: number | null,
  product: Pick<Product, 'priceMinor' | 'currency' | 'pricing'>,
): number | null {
  if (requested === null || (requested !== undefined && isBlank(requested))) return null;
  const minimum =
    requested === undefined
      ? current
      : minimumToMinor(requested, product.currency, product.priceMinor);
  if (minimum === null) return null;
  if (product.pricing.type !== 'one_time')
    throw new AppError(
      'pay_what_you_want_one_time',
      400,
      'Pay what you want is only for one-time prices',
    );
  if (minimum > product.priceMinor)
    throw new AppError(
      'minimum_above_price',
      400,
      'The minimum price cannot be more than the suggested price',
    );
  return minimum;
}

/** Sellers tell their buyers about new files at most once per BUYER_UPDATE_INTERVAL_MINUTES. */
function requireBuyerUpdateAllowed(product: Product, at: Date): void {
  if (!product.buyersToldAt) return;
  const waitMs = product.buyersToldAt.getTime() + BUYER_UPDATE_INTERVAL_MS - at.getTime();
  if (waitMs <= 0) return;
  const minutes = Math.ceil(waitMs / 60_000);
  throw new AppError(
    'buyer_update_too_soon',
    429,
    `You told your buyers about this product less than an hour ago; you can tell them again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
    { retryAfterSeconds: Math.ceil(waitMs / 1000) },
  );
}

/**
 * Who may change a product: its owner. Someone else gets 404 for a product they cannot see
 * (a draft: its existence is not revealed) and 403 for a published one they can already see.
 */
function requireOwned(product: Product | null, userId: string): Product {
  if (!product || !isVisibleTo(product, userId)) throw productNotFound();
  if (product.ownerId !== userId) throw errors.forbidden('You can only change your own products');
  return product;
}

export function createProductService({
  pool,
  uploads,
  now,
  cache,
  maxRateAgeHours = 0,
  newProductId = () => globalThis.crypto.randomUUID(),
}: ProductServiceDeps) {
  const views = createViewCounter(pool);
  async function ownUpload(seller: Seller, fileId: string): Promise<OwnUpload> {
    if (!UUID.test(fileId)) throw fileNotFound();
    const upload = await uploads.findOwnUpload(fileId, {
      token: seller.accessToken,
      requestId: seller.requestId,
      viaApiKey: seller.user.apiKey !== null,
    });
    if (!upload || upload.id.toLowerCase() !== fileId.toLowerCase()) throw fileNotFound();
    return upload;
  }

  /**
   * The seller's uploads a PATCH names that the product does not hold yet, asked of delivery
   * before the product is locked (their ownership cannot change meanwhile).
   */
  async function newUploads(
    seller: Seller,
    id: string,
    input: Pick<UpdateProductInput, 'files' | 'fileId'>,
  ): Promise<Map<string, ProductFile>> {
    const named = [...(input.files ?? []).map((file) => file.fileId), input.fileId ?? '']
      .map((fileId) => fileId.trim().toLowerCase())
      .filter((fileId) => fileId !== '');
    if (named.length === 0) return new Map();
    const current = await findProduct(pool, id);
    const held = new Set(current?.files.map((file) => file.fileId.toLowerCase()));
    const wanted = [...new Set(named)].filter((fileId) => !held.has(fileId));
    const found = await Promise.all(wanted.map((fileId) => ownUpload(seller, fileId)));
    return new Map(found.map((upload) => [upload.id.toLowerCase(), asProductFile(upload)]));
  }

  /**
   * Saves `next` in place of `current` (locked by the caller's transaction) with its events:
   * the snapshot event its status change calls for, and `product.files_added` when it gained
   * files. A change that changes nothing saves and emits nothing.
   */
  async function commitChange(
    tx: Queryable,
    current: Product,
    next: Product,
    at: Date,
    correlationId: string,
  ): Promise<Product> {
    if (JSON.stringify(snapshotOf(next)) === JSON.stringify(snapshotOf(current))) return current;
    const saved = { ...next, updatedAt: at };
    await saveProduct(tx, saved);
    const type =
      saved.status === current.status
        ? 'product.updated'
        : saved.status === 'published'
          ? 'product.published'
          : 'product.unpublished';
    await enqueueProductEvent(tx, type, saved, correlationId);
    const added = filesAdded(current, saved);
    if (added.length > 0) {
      const notifyBuyers = saved.buyersToldAt !== current.buyersToldAt;
      await enqueueFilesAdded(tx, saved, added, notifyBuyers, correlationId);
    }
    return saved;
  }

  /** Loads, authorises and locks a product, applies `change`, and commits it with its event. */
  async function changeOwned(
    seller: Seller,
    id: string,
    change: (product: Product, now: Date) => Product,
  ): Promise<Product> {
    const changed = await withTransaction(pool, async (tx) => {
      const current = requireOwned(await findProduct(tx, id, { forUpdate: true }), seller.user.id);
      const at = now();
      return commitChange(tx, current, change(current, at), at, seller.requestId);
    });
    // This process reads its own write at once; the others hear the commit's notification.
    cache.forget(id);
    return changed;
  }

  /**
   * Where a file stands with `product` for `sellerId`: `refused` for a product of someone
   * else's, a deleted one or none at all alike (nothing about them is revealed), and for a full
   * one; `listed` when the product already holds `fileId`; else `room`.
   */
  function attachmentTo(
    product: Product | null,
    sellerId: string,
    fileId?: string,
  ): { state: 'refused'; outcome: AttachOutcome } | { state: 'listed' | 'room' } {
    if (!product || product.ownerId !== sellerId)
      return { state: 'refused', outcome: { ok: false, reason: 'product_not_found' } };
    if (product.files.some((file) => file.fileId === fileId)) return { state: 'listed' };
    if (product.files.length >= MAX_FILES_PER_PRODUCT)
      return { state: 'refused', outcome: { ok: false, reason: 'too_many_files' } };
    return { state: 'room' };
  }

  /**
   * A fresh product id whose short id (its first 64 bits) no product, live or deleted, has:
   * the readable address names a product by its short id alone.
   */
  async function unusedProductId(): Promise<string> {
    for (;;) {
      const id = newProductId();
      if (!(await productIdByShortId(pool, shortIdOf(id), { includeDeleted: true }))) return id;
    }
  }

  return {
    async create(seller: Seller, input: CreateProductInput): Promise<Product> {
      if (isBlank(input.title) || isBlank(input.price)) throw missingFields();
      if (isBlank(input.fileId)) throw fileRequired();
      const currency = requireSupported(
        input.currency ?? DEFAULT_CURRENCY,
        await supportedCurrencies(pool),
      );
      const priceMinor = priceToMinor(input.price!, currency);
      const minimumPriceMinor = minimumFor(input.minimumPrice, null, {
        priceMinor,
        currency,
        pricing: input.pricing,
      });
      const upload = await ownUpload(seller, input.fileId!.trim());
      const at = now();
      const product: Product = {
        id: await unusedProductId(),
        ownerId: seller.user.id,
        title: input.title!.trim(),
        description: input.description?.trim() || null,
        priceMinor,
        currency,
        pricing: input.pricing,
        minimumPriceMinor,
        status: 'draft',
        fileId: upload.id,
        fileName: upload.fileName,
        fileSizeBytes: upload.sizeBytes,
        fileKind: upload.kind,
        files: [asProductFile(upload)],
        buyersToldAt: null,
        previewEnabled: input.previewEnabled,
        previewBlurPercentage: input.previewBlurPercentage,
        stampPdfs: input.stampPdfs,
        createdAt: at,
        updatedAt: at,
        publishedAt: null,
      };
      // The plan's monthly upload quota is delivery's: it counts uploads as they arrive.
      await withTransaction(pool, async (tx) => {
        await insertProduct(tx, product);
        await enqueueProductEvent(tx, 'product.created', product, seller.requestId);
      });
      cache.forget(product.id);
      return product;
    },

    /** The seller's own products, newest first, drafts included. */
    listMine(user: AuthUser): Promise<Product[]> {
      return listProductsOf(pool, user.id);
    },

    /** One `/api/v1` page of the seller's products (`limit + 1` rows); null: unknown cursor. */
    pageMine(
      user: AuthUser,
      page: { startingAfter?: string | undefined; limit: number },
    ): Promise<Product[] | null> {
      return pageProductsOf(pool, user.id, page);
    },

    /**
     * One product as `viewerId` may see it, with its price in `displayCurrency` when asked.
     * A visitor's read of a published product (not the owner's) is counted once per day.
     */
    async read(
      id: string,
      viewerId: string | null,
      options: { displayCurrency?: string; visit?: Visit } = {},
    ): Promise<ProductDetail> {
      // Anonymous visitors are the storefront's crowd; a signed-in reader (maybe the owner who
      // just saved) reads through, so nobody waits for their own edit to show.
      // A readable address's short id (`/p/<slug>-<shortId>`) names the product as its id does.
      if (SHORT_ID.test(id)) id = (await productIdByShortId(pool, id)) ?? id;
      const product = viewerId ? await findProduct(pool, id) : await cache.get(id);
      if (!product || !isVisibleTo(product, viewerId)) throw productNotFound();
      const target = options.displayCurrency
        ? requireSupported(options.displayCurrency, await supportedCurrencies(pool))
        : undefined;
      const rates = target ? freshRates(await exchangeRates(pool), maxRateAgeHours, now()) : [];
      const display = priceIn(product.priceMinor, product.currency, target, rates);
      const displayMinimum =
        product.minimumPriceMinor === null
          ? null
          : priceIn(product.minimumPriceMinor, product.currency, target, rates);
      const viewerIsOwner = product.ownerId === viewerId;
      if (options.visit && product.status === 'published' && !viewerIsOwner) {
        await views.record(product.id, options.visit, now());
      }
      return { product, viewerIsOwner, display, displayMinimum };
    },

    async update(seller: Seller, id: string, input: UpdateProductInput): Promise<Product> {
      if (input.title !== undefined && isBlank(input.title)) throw missingFields();
      if (input.price === null || (input.price !== undefined && isBlank(input.price)))
        throw missingFields();
      if (input.fileId === null || (input.fileId !== undefined && isBlank(input.fileId)))
        throw fileRequired();
      if (input.files?.length === 0) throw fileRequired();
      const currency =
        input.currency === undefined
          ? undefined
          : requireSupported(input.currency, await supportedCurrencies(pool));
      const uploads = await newUploads(seller, id, input);
      return changeOwned(seller, id, (product, at) => {
        const nextCurrency = currency ?? product.currency;
        const priceMinor =
          input.price !== undefined
            ? priceToMinor(input.price!, nextCurrency)
            : repriceInCurrency(product.priceMinor, product.currency, nextCurrency);
        const pricing = input.pricing ?? product.pricing;
        const minimumPriceMinor = minimumFor(
          input.minimumPrice,
          product.minimumPriceMinor === null
            ? null
            : // The same decimal in the new currency, as the price is (zero stays zero).
              product.minimumPriceMinor === 0
              ? 0
              : repriceInCurrency(product.minimumPriceMinor, product.currency, nextCurrency),
          { priceMinor, currency: nextCurrency, pricing },
        );
        const { files, previewFileId } = fileListFor(product, input, uploads);
        const changed = withFiles(
          {
            ...product,
            title: input.title?.trim() ?? product.title,
            description:
              input.description === undefined
                ? product.description
                : input.description?.trim() || null,
            priceMinor,
            currency: nextCurrency,
            pricing,
            minimumPriceMinor,
            previewEnabled: input.previewEnabled ?? product.previewEnabled,
            previewBlurPercentage: input.previewBlurPercentage ?? product.previewBlurPercentage,
            stampPdfs: input.stampPdfs ?? product.stampPdfs,
          },
          files,
          previewFileId,
        );
        if (!input.notifyBuyers) return changed;
        if (filesAdded(product, changed).length === 0) throw nothingToTell();
        requireBuyerUpdateAllowed(product, at);
        return { ...changed, buyersToldAt: at };
      });
    },

    /** Sets draft or published; setting the current status again changes nothing and emits nothing. */
    setStatus(seller: Seller, id: string, status: ProductStatus): Promise<Product> {
      return changeOwned(seller, id, (product, now) =>
        product.status === status
          ? product
          : { ...product, status, publishedAt: status === 'published' ? now : null },
      );
    },

    /** Asked by delivery before it reads an API upload that names `productId` (commands.ts). */
    async fileAttachable(sellerId: string, productId: string): Promise<AttachOutcome> {
      const attachment = attachmentTo(await findProduct(pool, productId), sellerId);
      return attachment.state === 'refused' ? attachment.outcome : { ok: true };
    },

    /**
     * Appends `file` (delivery's word: the seller's upload, just stored) to the product's files
     * under the product's row lock, so uploads finishing together are all kept — the PATCH's
     * whole-list replacement would let the last one win. A file already listed is a repeated
     * ask (delivery retries after a timeout): answered ok, nothing saved or emitted.
     */
    async attachFile(
      sellerId: string,
      productId: string,
      file: ProductFile,
      correlationId: string,
    ): Promise<AttachOutcome> {
      const outcome = await withTransaction(pool, async (tx): Promise<AttachOutcome> => {
        const current = await findProduct(tx, productId, { forUpdate: true });
        const attachment = attachmentTo(current, sellerId, file.fileId);
        if (attachment.state === 'refused') return attachment.outcome;
        if (attachment.state === 'room' && current) {
          const next = withFiles(current, [...current.files, file], current.fileId);
          await commitChange(tx, current, next, now(), correlationId);
        }
        return { ok: true };
      });
      if (outcome.ok) cache.forget(productId);
      return outcome;
    },

    async remove(seller: Seller, id: string): Promise<void> {
      await withTransaction(pool, async (tx) => {
        const product = requireOwned(
          await findProduct(tx, id, { forUpdate: true }),
          seller.user.id,
        );
        await markProductDeleted(tx, product.id, now());
        await enqueueProductDeleted(tx, product, seller.requestId);
      });
      cache.forget(id);
    },
  };
}

export type ProductService = ReturnType<typeof createProductService>;

/** Rates young enough to show a price with: a stale rate is treated as a missing one. */
function freshRates<T extends { updatedAt: Date }>(rates: T[], maxAgeHours: number, at: Date): T[] {
  if (maxAgeHours <= 0) return rates;
  const oldest = at.getTime() - maxAgeHours * 3_600_000;
  return rates.filter((rate) => rate.updatedAt.getTime() >= oldest);
}
