import { EXCHANGE_RATES_STALE_AFTER_MS, type PriceDisplay } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import {
  convertMinor,
  formatMoney,
  minorToDecimalString,
  normalizeCurrency,
  type ExchangeRate,
} from '@lockdrop/money';
import { z } from 'zod';
import { listRates, type StoredRate } from '../db/exchange-rates.repo.js';
import { readSetting } from '../db/platform-settings.repo.js';

/** Spec §8: the list used when the supported_currencies setting cannot be read. */
export const FALLBACK_CURRENCIES = ['USD', 'EUR', 'GBP', 'NGN', 'CAD', 'AUD'];
export const DEFAULT_CURRENCY = 'USD';

export interface SupportedCurrencies {
  currencies: string[];
  source: 'settings' | 'fallback';
}

const currencyListSchema = z.array(z.string().regex(/^[A-Z]{3}$/)).min(1);

/** The supported_currencies platform setting; a missing or malformed row falls back (spec §8). */
export async function supportedCurrencies(db: Queryable): Promise<SupportedCurrencies> {
  const stored = currencyListSchema.safeParse(await readSetting(db, 'supported_currencies'));
  if (!stored.success) return { currencies: FALLBACK_CURRENCIES, source: 'fallback' };
  return { currencies: [...new Set(stored.data)], source: 'settings' };
}

/** Normalises a requested currency and refuses one the platform does not sell in. */
export function requireSupported(currency: string, supported: SupportedCurrencies): string {
  let code: string;
  try {
    code = normalizeCurrency(currency);
  } catch {
    code = currency;
  }
  if (!supported.currencies.includes(code)) {
    throw new AppError('unsupported_currency', 400, `${currency} is not a supported currency`);
  }
  return code;
}

/** Every stored rate, newest first (spec §7 row 18). */
export function exchangeRates(db: Queryable): Promise<StoredRate[]> {
  return listRates(db);
}

export interface RatesWithAge {
  rates: StoredRate[];
  /** When the newest stored set was published; null when no rate is stored. */
  asOf: Date | null;
  /** Older than a day at `now`: screens then say how old the rates are. */
  stale: boolean;
}

/** The stored rates and how old the newest of them is, so screens can say "Rates as of …". */
export async function exchangeRatesWithAge(db: Queryable, now: Date): Promise<RatesWithAge> {
  const rates = await listRates(db);
  const asOf = rates[0]?.updatedAt ?? null;
  const stale = asOf !== null && now.getTime() - asOf.getTime() > EXCHANGE_RATES_STALE_AFTER_MS;
  return { rates, asOf, stale };
}

function display(
  amountMinor: number,
  currency: string,
): Omit<PriceDisplay, 'converted' | 'warning'> {
  return {
    amountMinor,
    currency,
    amount: minorToDecimalString(amountMinor, currency),
    formatted: formatMoney(amountMinor, currency),
  };
}

/** The price in `target` (direct → inverse → via USD), or unconverted with a warning when no rate exists. */
export function priceIn(
  priceMinor: number,
  currency: string,
  target: string | undefined,
  rates: readonly ExchangeRate[],
): PriceDisplay {
  if (!target || target === currency)
    return { ...display(priceMinor, currency), converted: false, warning: null };
  const conversion = convertMinor(priceMinor, currency, target, rates);
  if (!conversion.converted) {
    return {
      ...display(priceMinor, currency),
      converted: false,
      warning: {
        code: 'exchange_rate_missing',
        message: `No exchange rate from ${currency} to ${target}; showing the price in ${currency}`,
      },
    };
  }
  return {
    ...display(conversion.amountMinor, conversion.currency),
    converted: true,
    warning: null,
  };
}
