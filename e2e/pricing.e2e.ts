import { formatMoney, toMinor } from '@lockdrop/money';
import {
  PLANS,
  earningsBreakdown,
  formatBps,
  formatFileSize,
  planFeatureLines,
  yearlySavingsPercent,
} from '@lockdrop/plans';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOBILE, launchBrowser, type Browser } from './support/browser';
import { PROCESSOR_FEE_BPS } from './support/fees';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function cardPrices(page: Page) {
  return page.locator('[data-plan] [data-plan-figure="price"]').allInnerTexts();
}

describe('/pricing monthly/yearly toggle', () => {
  it('switches every plan between its monthly and yearly price', async () => {
    const page = await browser.open('/pricing');
    const monthly = page.getByRole('button', { name: /^Monthly/ });
    const yearly = page.getByRole('button', { name: /^Yearly/ });
    expect(await monthly.getAttribute('aria-pressed')).toBe('true');
    expect(await cardPrices(page)).toEqual(
      PLANS.map((p) => formatMoney(p.monthlyPriceMinor, p.currency)),
    );

    await yearly.click();
    expect(await yearly.getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => cardPrices(page))
      .toEqual(PLANS.map((p) => formatMoney(p.yearlyPriceMinor, p.currency)));
    expect(await page.locator('[data-plan]').filter({ hasText: '/year' }).count()).toBe(
      PLANS.length,
    );

    await monthly.click();
    await expect
      .poll(() => cardPrices(page))
      .toEqual(PLANS.map((p) => formatMoney(p.monthlyPriceMinor, p.currency)));
    await page.close();
  });

  it('states the processing fee checkout counts on this deployment, not the shipped default', async () => {
    const page = await browser.open('/pricing');
    await expect
      .poll(() => page.locator('[data-plan-figure="processor-fee"]').innerText())
      .toBe(formatBps(PROCESSOR_FEE_BPS));
    expect(PROCESSOR_FEE_BPS).not.toBe(350);
    await page.close();
  });

  it("advertises the yearly saving the table gives ('save 17%')", async () => {
    const page = await browser.open('/pricing');
    const saving = Math.max(...PLANS.map(yearlySavingsPercent));
    expect(saving).toBe(17);
    expect(await page.locator('[data-plan-figure="yearly-savings"]').innerText()).toBe(
      `save ${saving}%`,
    );
    await page.close();
  });
});

const samples = [
  { price: '1', currency: 'USD' },
  { price: '9.99', currency: 'USD' },
  { price: '25', currency: 'USD' },
  { price: '123.45', currency: 'USD' },
  { price: '15000', currency: 'NGN' },
  { price: '49.5', currency: 'EUR' },
  { price: '', currency: 'USD' },
];

describe('/lockdrop/pricing earnings calculator', () => {
  it.each(samples)('matches the plan table for $price $currency', async ({ price, currency }) => {
    const page = await browser.open('/lockdrop/pricing', MOBILE);
    await page.getByLabel('Currency').selectOption(currency);
    await page.getByLabel('Product price').fill(price);
    const amountMinor = price === '' ? 0 : toMinor(price, currency);
    for (const plan of PLANS) {
      const expected = earningsBreakdown(plan, amountMinor, PROCESSOR_FEE_BPS);
      const card = page.locator(`[data-calculator-plan="${plan.id}"]`);
      const field = (name: string) => card.locator(`[data-field="${name}"]`).innerText();
      await expect.poll(() => field('net')).toBe(formatMoney(expected.netMinor, currency));
      expect(await field('platform-fee')).toBe(formatMoney(expected.platformFeeMinor, currency));
      expect(await field('processor-fee')).toBe(formatMoney(expected.processorFeeMinor, currency));
      expect(await field('kept')).toBe(formatBps(expected.keptBps));
      expect(expected.platformFeeMinor + expected.processorFeeMinor + expected.netMinor).toBe(
        amountMinor,
      );
    }
    await page.close();
  });

  it('offers a price field with minimum 1 and step 0.01', async () => {
    const page = await browser.open('/lockdrop/pricing');
    const input = page.getByLabel('Product price');
    expect(await input.getAttribute('min')).toBe('1');
    expect(await input.getAttribute('step')).toBe('0.01');
    await page.close();
  });
});

/* A page may only show plan figures that are in the plan table. */

const allowedMoney = new Set(
  PLANS.flatMap((p) => [
    formatMoney(p.monthlyPriceMinor, p.currency),
    formatMoney(p.yearlyPriceMinor, p.currency),
  ]),
);
const allowedPercent = new Set([
  ...PLANS.map((p) => formatBps(p.platformFeeBps)),
  formatBps(PROCESSOR_FEE_BPS),
  ...PLANS.filter((p) => yearlySavingsPercent(p) > 0).map((p) => `${yearlySavingsPercent(p)}%`),
]);
const allowedSizes = new Set(PLANS.map((p) => formatFileSize(p.maxFileBytes)));
const allowedUploads = new Set(
  PLANS.flatMap((p) => (p.uploadsPerMonth === null ? [] : [p.uploadsPerMonth])),
);

/** Visible text of the page, without the calculator's computed results. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const excluded = [...document.querySelectorAll<HTMLElement>('[data-calculator-results]')];
    excluded.forEach((el) => (el.style.display = 'none'));
    const text = document.body.innerText;
    excluded.forEach((el) => (el.style.display = ''));
    return text;
  });
}

describe('plan figures agree with the plan table on every page', () => {
  it.each([
    '/',
    '/lockdrop',
    '/home',
    '/features',
    '/pricing',
    '/lockdrop/pricing',
    '/terms',
    '/refund',
    '/privacy',
    '/contact',
    '/founder',
  ])('%s shows no price or percentage outside the table', async (path) => {
    const page = await browser.open(path);
    // The processing fee arrives from payments after the prerendered page shows.
    await page.waitForLoadState('networkidle');
    const pages = [await visibleText(page)];
    if (path === '/pricing') {
      await page.getByRole('button', { name: /^Yearly/ }).click();
      pages.push(await visibleText(page));
    }
    for (const text of pages) {
      for (const money of text.match(/[$€£₦]\s?\d[\d,]*(?:\.\d+)?/g) ?? [])
        expect(allowedMoney, `${path}: ${money}`).toContain(money);
      for (const percent of text.match(/\d+(?:\.\d+)?%/g) ?? [])
        expect(allowedPercent, `${path}: ${percent}`).toContain(percent);
      for (const size of text.match(/\d+(?:\.\d+)?\s?[MG]B\b/g) ?? [])
        expect(allowedSizes, `${path}: ${size}`).toContain(size);
      for (const [, uploads] of text.matchAll(/(?<![\d.,])(\d+) uploads/gi))
        expect(allowedUploads, `${path}: ${uploads} uploads`).toContain(Number(uploads));
    }
    await page.close();
  });

  it.each(['/', '/pricing', '/lockdrop/pricing'])(
    '%s plan cards carry the table’s price and features',
    async (path) => {
      const page = await browser.open(path);
      for (const plan of PLANS) {
        const card = page.locator(`article[data-plan="${plan.id}"]`);
        expect(await card.locator('[data-plan-figure="price"]').innerText()).toBe(
          formatMoney(plan.monthlyPriceMinor, plan.currency),
        );
        expect(await card.locator('[data-plan-figure="feature"]').allInnerTexts()).toEqual(
          planFeatureLines(plan),
        );
      }
      await page.close();
    },
  );

  it('/terms states each plan’s prices and fee from the table', async () => {
    const page = await browser.open('/terms');
    for (const plan of PLANS) {
      const cells = await page.locator(`tr[data-plan="${plan.id}"] td`).allInnerTexts();
      expect(cells).toEqual([
        formatMoney(plan.monthlyPriceMinor, plan.currency),
        formatMoney(plan.yearlyPriceMinor, plan.currency),
        formatBps(plan.platformFeeBps),
      ]);
    }
    await page.close();
  });
});
