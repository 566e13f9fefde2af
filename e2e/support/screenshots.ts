import type { Page } from 'playwright-core';
import { MOBILE } from './browser';

const screenshotDir = process.env.E2E_SCREENSHOTS;

/**
 * With `E2E_SCREENSHOTS=<dir>`, saves the whole page as `<name>.png` and, unless `mobile` is
 * false, again at phone width as `<name>-375.png` (the page stays at that width afterwards).
 */
export async function shoot(
  page: Page,
  name: string,
  { mobile = true }: { mobile?: boolean } = {},
): Promise<void> {
  if (!screenshotDir) return;
  await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
  if (!mobile) return;
  await page.setViewportSize(MOBILE);
  await page.screenshot({ path: `${screenshotDir}/${name}-375.png`, fullPage: true });
}
