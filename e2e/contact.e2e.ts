import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function fillContactForm(page: Page) {
  await page.getByLabel('Name', { exact: true }).fill('Ada Obi');
  await page.getByLabel('E-mail', { exact: true }).fill('ada@example.com');
  await page
    .getByLabel('Message', { exact: true })
    .fill('I would like to know how payouts to a Nigerian bank account work.');
}

describe('/contact form', () => {
  it('validates on the client before anything is sent', async () => {
    const page = await browser.open('/contact');
    let posted = false;
    await page.route('**/api/contact', (route) => {
      posted = true;
      return route.abort();
    });
    await page.getByLabel('Name', { exact: true }).fill('Ada');
    await page.getByLabel('E-mail', { exact: true }).fill('not-an-address');
    await page.getByLabel('Message', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Send message' }).click();
    expect(await page.getByText('Please enter a valid e-mail address').isVisible()).toBe(true);
    expect(await page.getByText('Please write at least 10 characters').isVisible()).toBe(true);
    expect(posted).toBe(false);
    await page.close();
  });

  // The contact backend belongs to another service; these pin the browser's side of the contract.
  it('posts { name, email, message } and confirms with a toast', async () => {
    const page = await browser.open('/contact');
    let body: unknown;
    await page.route('**/api/contact', async (route) => {
      body = route.request().postDataJSON();
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"ok":true}' });
    });
    await fillContactForm(page);
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Message sent').waitFor();
    expect(body).toEqual({
      name: 'Ada Obi',
      email: 'ada@example.com',
      message: 'I would like to know how payouts to a Nigerian bank account work.',
    });
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    await page.close();
  });

  it("shows the API's error message when sending fails", async () => {
    const page = await browser.open('/contact');
    await page.route('**/api/contact', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({
          error: {
            code: 'rate_limited',
            message: 'Too many messages. Please try again in a few minutes.',
          },
        }),
      }),
    );
    await fillContactForm(page);
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Too many messages. Please try again in a few minutes.').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Ada Obi');
    await page.close();
  });
});
