import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_SUBJECT, linkIn, newAccount, waitForMail } from './support/accounts';
import { MOBILE, baseUrl, launchBrowser, type Browser } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// Issue 29: choosing Pro while signed out (or before the page hydrated) forgot the plan.
describe('a plan chosen on /pricing survives sign-up', () => {
  it('the prerendered plan card already links to sign-up with the plan (a click before hydration)', async () => {
    const html = await (await fetch(`${baseUrl}/pricing`)).text();
    expect(html).toContain('href="/signup?plan=pro&amp;interval=monthly"');
  });

  it('Choose Pro → sign up → the Pro checkout is offered and leads to the payment page', async () => {
    const page = await browser.open('/pricing', MOBILE);
    await page.getByRole('button', { name: /^Yearly/ }).click();
    await page
      .locator('article[data-plan="pro"]')
      .getByRole('link', { name: 'Choose Pro' })
      .click();
    await page.waitForURL('**/signup?plan=pro&interval=yearly');

    const account = newAccount('plan');
    await page.getByLabel('Full name').fill(account.fullName);
    await page.getByLabel('E-mail', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL((url) => url.pathname === '/settings');
    expect(new URL(page.url()).search).toBe('?plan=pro&interval=yearly');
    const chosen = page.getByTestId('chosen-plan');
    await expect.poll(() => chosen.innerText()).toContain('You chose Pro (yearly)');
    // The verification e-mail's link, opened later in another tab, offers the same checkout.
    const message = await waitForMail(page, { to: account.email, subject: VERIFY_SUBJECT });
    const verified = await browser.context.newPage();
    await verified.setViewportSize(MOBILE);
    await verified.goto(linkIn(message, '/api/auth/verify-email'), { waitUntil: 'networkidle' });
    await verified.getByRole('heading', { name: 'E-mail verified' }).waitFor();
    const onward = verified.getByRole('link', { name: 'Continue to Pro checkout' });
    await onward.waitFor();
    expect(await onward.getAttribute('href')).toBe('/settings?plan=pro&interval=yearly#plan');
    await verified.close();

    await chosen.getByRole('button', { name: 'Continue to Pro checkout' }).click();
    await page.waitForURL('**/sandbox/checkout/**', { timeout: 20_000 });
    await page.close();
  });

  it('an invalid plan in the URL is ignored: sign-up goes to the dashboard as before', async () => {
    // A fresh browser: the first journey left this one signed in (and /signup would move on).
    const fresh = await launchBrowser();
    const page = await fresh.open('/signup?plan=platinum', MOBILE);
    const account = newAccount('noplan');
    await page.getByLabel('Full name').fill(account.fullName);
    await page.getByLabel('E-mail', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((url) => url.pathname !== '/signup');
    expect(new URL(page.url()).pathname).not.toBe('/settings');
    await fresh.close();
  });

  it('"Sign in" from a sign-up that carries a plan keeps it for an existing account', async () => {
    const fresh = await launchBrowser();
    const page = await fresh.open('/signup?plan=business&interval=monthly', MOBILE);
    const href = await page.getByRole('link', { name: 'Sign in' }).last().getAttribute('href');
    expect(href).toBe(
      `/login?redirectTo=${encodeURIComponent('/settings?plan=business&interval=monthly#plan')}`,
    );
    await fresh.close();
  });
});
