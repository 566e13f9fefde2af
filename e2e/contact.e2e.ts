import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForMailWhere } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { expectToast } from './support/toasts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const MESSAGE = 'I would like to know how payouts to a Nigerian bank account work.';

async function fillContactForm(page: Page, email: string) {
  await page.getByLabel('Name', { exact: true }).fill('Ada Obi');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Message', { exact: true }).fill(MESSAGE);
}

describe('/contact form', () => {
  it('validates on the client before anything is sent', async () => {
    const page = await browser.open('/contact');
    let posted = false;
    page.on('request', (request) => {
      if (request.url().includes('/api/contact')) posted = true;
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

  it('sends { name, email, message } for real: a toast confirms and the inbox receives it', async () => {
    const page = await browser.open('/contact');
    const sender = `ada-${randomBytes(4).toString('hex')}@example.com`;
    await fillContactForm(page, sender);
    await page.getByRole('button', { name: 'Send message' }).click();
    await expectToast(page, 'Message sent');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('');

    const mail = await waitForMailWhere(
      page,
      (message) => message.subject === 'Contact form: Ada Obi' && message.text.includes(sender),
    );
    expect(mail.text).toContain(MESSAGE);
    await page.close();
  });

  it("shows the API's error message when sending fails, and keeps what was typed", async () => {
    const page = await browser.open('/contact');
    // Identity allows a few messages per address per hour: spend the rest of the budget.
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 429; attempt++) {
      const response = await browser.context.request.post('/api/contact', {
        data: {
          name: 'Budget',
          email: 'budget@example.com',
          message: 'Using up the hourly budget.',
        },
      });
      status = response.status();
    }
    expect(status).toBe(429);
    await fillContactForm(page, 'ada@example.com');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expectToast(page, 'Too many attempts. Please try again later.');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Ada Obi');
    await page.close();
  });
});
