import type { Page } from 'playwright-core';

/** A toast (sonner) showing `title`, and its description when given; waits for it to appear. */
export async function expectToast(page: Page, title: string, description?: string): Promise<void> {
  const toast = page.locator('[data-sonner-toast]', { hasText: title }).first();
  await toast.waitFor();
  if (description !== undefined) {
    await toast.locator('[data-description]', { hasText: description }).waitFor();
  }
}
