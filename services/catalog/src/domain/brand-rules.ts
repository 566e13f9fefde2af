import { AppError } from '@lockdrop/http';
import { ACCENT_COLOUR_PATTERN, STORE_HANDLE_PATTERN } from '@lockdrop/contracts';

/** WCAG 2.x AA for normal text: the accent colour carries button labels in white and links on white. */
export const WCAG_AA_MIN_CONTRAST = 4.5;

/**
 * Handles that would read as Lockdrop itself or collide with a path people expect to be ours
 * (the store page is `/s/<handle>`, and a handle may one day be a subdomain).
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  'about',
  'account',
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'billing',
  'blog',
  'checkout',
  'contact',
  'dashboard',
  'dev',
  'docs',
  'download',
  'downloads',
  'edge',
  'features',
  'founder',
  'help',
  'home',
  'legal',
  'lockdrop',
  'login',
  'logout',
  'mail',
  'official',
  'payment',
  'payments',
  'payouts',
  'pricing',
  'privacy',
  'product',
  'products',
  'purchases',
  'receipt',
  'refund',
  'root',
  'sandbox',
  'security',
  'settings',
  'shop',
  'signup',
  'static',
  'status',
  'store',
  'stores',
  'support',
  'system',
  'team',
  'terms',
  'www',
]);

/** sRGB channel (0–255) to linear light, as WCAG 2.x defines relative luminance. */
function linear(channel: number): number {
  const value = channel / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** Contrast ratio of a `#rrggbb` colour against white (1 … 21). */
export function contrastAgainstWhite(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16));
  const luminance = 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
  return 1.05 / (luminance + 0.05);
}

/** Shown ratios are rounded down, so a refused colour never reads as "4.5:1". */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

export function checkAccentColour(colour: string | null): string | null {
  if (colour === null || colour === '') return null;
  if (!ACCENT_COLOUR_PATTERN.test(colour)) {
    throw new AppError(
      'invalid_accent_colour',
      400,
      'The accent colour must be a six-digit hex colour such as #1d4ed8',
    );
  }
  const ratio = contrastAgainstWhite(colour);
  if (ratio < WCAG_AA_MIN_CONTRAST) {
    throw new AppError(
      'accent_colour_contrast',
      400,
      `The accent colour ${colour} has a contrast ratio of ${formatRatio(ratio)} against white; WCAG AA needs at least ${WCAG_AA_MIN_CONTRAST}:1 so buyers can read buttons and links. Choose a darker colour.`,
      { ratio: Math.floor(ratio * 100) / 100, required: WCAG_AA_MIN_CONTRAST },
    );
  }
  return colour;
}

export function checkHandle(handle: string): string {
  if (!STORE_HANDLE_PATTERN.test(handle)) {
    throw new AppError(
      'invalid_handle',
      400,
      'A store handle is 3 to 30 lowercase letters, digits or single hyphens, starting and ending with a letter or digit',
    );
  }
  if (RESERVED_HANDLES.has(handle)) {
    throw new AppError(
      'handle_reserved',
      400,
      `The handle "${handle}" is reserved; choose another`,
    );
  }
  return handle;
}
