/** Purchases as payments serves them: the shapes live in libs/contracts (api/purchases.ts). */
export type { PurchaseView as Purchase } from '@lockdrop/contracts';
