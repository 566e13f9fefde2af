import { discountCodeListSchema, type DiscountCode } from '@lockdrop/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** GET /api/discount-codes (payments): the signed-in seller's codes with their uses. */
export const getDiscountCodes = async (): Promise<DiscountCode[]> =>
  discountCodeListSchema.parse(await api('/api/discount-codes')).discountCodes;

/** The one key for the list: every change below invalidates it. */
export const DISCOUNT_CODES_KEY = ['discount-codes'] as const;

export const discountCodesQueryOptions = () =>
  queryOptions({ queryKey: DISCOUNT_CODES_KEY, queryFn: getDiscountCodes });

export const useDiscountCodes = () => useQuery(discountCodesQueryOptions());
