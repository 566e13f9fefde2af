/** A product as catalog returns it: the types of the schemas in libs/contracts/src/api/products.ts. */
import type { CreateProductRequest } from '@lockdrop/contracts';

export type {
  FileKind,
  PriceDisplay,
  Pricing,
  Product,
  ProductDetail,
  ProductStatus,
} from '@lockdrop/contracts';

/**
 * What the create and edit forms send: a complete create request, with text fields as typed.
 * `minimumPrice` set turns pay what you want on (`price` is then the suggested price).
 */
export type ProductInput = Required<
  Omit<CreateProductRequest, 'title' | 'description' | 'price' | 'currency' | 'minimumPrice'>
> & {
  title: string;
  description: string | null;
  price: string;
  currency: string;
  minimumPrice: string | null;
};
