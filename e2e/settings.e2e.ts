import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInByApi, signUpSeller } from './support/accounts';
import { MOBILE, baseUrl, launchBrowser, type Browser } from './support/browser';
import { expectToast } from './support/toasts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  await browser.context.clearCookies();
});

async function openAccountMenu(page: Page) {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  return page.getByRole('menu', { name: 'My Account' });
}

const section = (page: Page, name: string) => page.getByRole('region', { name });

describe('/settings profile', () => {
  it('a new full name shows in the avatar menu', async () => {
    await signUpSeller(browser.context);
    const page = await browser.open('/settings');
    const profile = section(page, 'Profile');
    await profile.getByLabel('Full name').fill('Grace Hopper');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await expectToast(page, 'Profile updated');
    await profile.getByRole('button', { name: 'Resend link' }).click();
    await expectToast(page, 'Verification e-mail sent');
    const menu = await openAccountMenu(page);
    expect(await menu.getByTestId('account-name').innerText()).toBe('Grace Hopper');
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual([
      'Dashboard',
      'My Purchases',
      'Settings',
      'Logout',
    ]);
    await page.close();
  });

  it('falls back from a broken picture to the image generated from the e-mail', async () => {
    await signUpSeller(browser.context);
    // Settings uploads pictures now; an API client (or an older account) may still hold a link.
    const patched = await browser.context.request.patch(`${baseUrl}/api/profile`, {
      data: { avatarUrl: 'http://127.0.0.1:9/missing.png' },
    });
    expect(patched.ok()).toBe(true);
    const page = await browser.open('/settings');
    const avatar = page.getByRole('button', { name: 'Open account menu' }).locator('img');
    await expect.poll(() => avatar.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
    await page.close();
  });
});

describe('/settings sessions', () => {
  it('lists this and another browser, and signs the other one out', async () => {
    const person = await signUpSeller(browser.context);
    const other = await launchBrowser();
    try {
      await signInByApi(other.context, person);
      const page = await browser.open('/settings');
      const sessions = section(page, "Where you're signed in");
      // The list loads after the page: on a loaded CI machine that took longer than expect.poll's
      // default second.
      await expect
        .poll(() => sessions.locator('li[data-session]').count(), { timeout: 20_000 })
        .toBe(2);
      expect(await sessions.locator('li[data-session="current"]').innerText()).toContain(
        'This device',
      );
      await sessions.getByRole('button', { name: 'Sign out other sessions' }).click();
      await expectToast(page, 'Signed out of other sessions');
      await expect
        .poll(() => sessions.locator('li[data-session]').count(), { timeout: 20_000 })
        .toBe(1);

      const otherPage = await other.open('/settings');
      await otherPage.waitForURL('**/login?redirectTo=%2Fsettings');
    } finally {
      await other.close();
    }
  });
});

describe('/settings two-factor authentication', () => {
  it('enrolls with the QR code secret, then sign-in asks for a code', async () => {
    const person = await signUpSeller(browser.context, { verified: true });
    const page = await browser.open('/settings');
    const mfa = section(page, 'Two-factor authentication');
    await mfa.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    await mfa.getByRole('img', { name: /QR code/ }).waitFor();
    const secret = await mfa.getByTestId('mfa-secret').innerText();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    await mfa.getByLabel('Authentication code').fill(totp.generate());
    await mfa.getByRole('button', { name: 'Verify and turn on' }).click();
    // Turning it on shows the recovery codes once (e2e/recovery-codes.e2e.ts covers them).
    await mfa.getByRole('button', { name: "I've saved my codes" }).click();
    await mfa.getByText('Two-factor authentication is on').first().waitFor();

    await browser.context.clearCookies();
    await page.goto('/login?redirectTo=%2Fsettings', { waitUntil: 'networkidle' });
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectToast(page, 'Sign In Failed', 'Invalid verification code');
    // Each code works once: the next time step's code (accepted within the window).
    await page
      .getByLabel('Authentication code')
      .fill(totp.generate({ timestamp: Date.now() + 30_000 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/settings');
    await expectToast(page, 'Welcome back!');
    await page.close();
  }, 60_000);
});

describe('/settings payouts and plan', () => {
  it('saves a Wise destination, shown masked after a reload; PayPal and Stripe are coming soon', async () => {
    await signUpSeller(browser.context);
    const page = await browser.open('/settings');
    const payouts = section(page, 'Payouts');
    expect(await payouts.getByRole('radio', { name: /PayPal/ }).isDisabled()).toBe(true);
    expect(await payouts.getByRole('radio', { name: /Stripe/ }).isDisabled()).toBe(true);
    await payouts.getByRole('radio', { name: /Wise/ }).check();
    await payouts.getByLabel('Wise e-mail', { exact: true }).fill('payouts@example.com');
    await payouts.getByLabel('Wise account ID').fill('12345678');
    await payouts.getByRole('button', { name: 'Save payout details' }).click();
    await expectToast(page, 'Payout details saved');

    await page.reload({ waitUntil: 'networkidle' });
    const saved = section(page, 'Payouts').getByTestId('payout-destination');
    expect(await saved.innerText()).toBe('Wise p•••@example.com');
    expect(await section(page, 'Payouts').innerText()).not.toContain('payouts@example.com');
    const profile = await (await browser.context.request.get('/api/profile')).json();
    expect(profile.payoutMethod).toBe('wise');
    const plan = section(page, 'Plan');
    expect(await plan.locator('[data-plan]').innerText()).toBe('Free');
    expect(await plan.getByRole('link', { name: 'Compare plans' }).getAttribute('href')).toBe(
      '/pricing',
    );
    await page.close();
  });
});

describe('/settings password and account', () => {
  it('changes the password, then deletes the account', async () => {
    const person = await signUpSeller(browser.context);
    const page = await browser.open('/settings');
    const password = section(page, 'Password');
    await password.getByLabel('Current password').fill(person.password);
    await password.getByLabel('New password').fill('short');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Password must be at least 8 characters long').waitFor();
    await password.getByLabel('New password').fill('a changed passphrase');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expectToast(page, 'Password changed');

    const danger = section(page, 'Delete account');
    await danger.getByRole('button', { name: 'Delete account...' }).click();
    await danger.getByLabel('Password').fill(person.password);
    await danger.getByRole('button', { name: 'Delete my account' }).click();
    await page.locator('[data-sonner-toast]', { hasText: 'incorrect' }).waitFor();
    await danger.getByLabel('Password').fill('a changed passphrase');
    await danger.getByRole('button', { name: 'Delete my account' }).click();
    await expectToast(page, 'Account deleted');
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill('a changed passphrase');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectToast(page, 'Sign In Failed');
    await page.close();
  });
});

describe('/onboarding', () => {
  it('is offered on /dashboard until done, and resumes at the first step not done', async () => {
    await signUpSeller(browser.context);
    const role = await browser.context.request.patch('/api/profile', { data: { role: 'agency' } });
    expect(role.ok()).toBe(true);
    const page = await browser.open('/dashboard');
    const resume = page.getByRole('region', { name: 'Finish setting up your account' });
    await resume.getByText('1 of 3 steps done. Still to do: payouts, first product.').waitFor();
    await resume.getByRole('link', { name: 'Resume setup' }).click();
    await page.waitForURL('**/onboarding');
    await page.getByRole('heading', { name: 'How would you like to be paid?' }).waitFor();
    await page.close();
  });

  it('saves role and payout method, then Complete creates the first product as a draft on /dashboard', async () => {
    await signUpSeller(browser.context);
    const page = await browser.open('/onboarding', MOBILE);
    const continueButton = page.getByRole('button', { name: 'Continue' });
    expect(await continueButton.isDisabled()).toBe(true);
    await page.getByText('Creator', { exact: true }).click();
    await continueButton.click();
    await page.getByRole('heading', { name: 'How would you like to be paid?' }).waitFor();
    expect(await continueButton.isDisabled()).toBe(true);
    await page.getByRole('radio', { name: /Payoneer/ }).check();
    expect(await continueButton.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save payout details' }).click();
    await page.getByText('Please enter a valid e-mail address').waitFor();
    await page.getByLabel('Payoneer e-mail', { exact: true }).fill('ada@payoneer.example.com');
    await page.getByRole('button', { name: 'Save payout details' }).click();
    await page.getByTestId('payout-destination').waitFor();
    await continueButton.click();
    await page.getByRole('heading', { name: 'Create your first product' }).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'How would you like to be paid?' }).waitFor();
    await continueButton.click();
    expect(await page.getByRole('link', { name: 'Skip for now' }).getAttribute('href')).toBe(
      '/dashboard',
    );
    const complete = page.getByRole('button', { name: 'Complete' });
    await complete.click();
    await expectToast(page, 'Please fill in all required fields');
    await page.getByLabel('Name').fill('Logo concepts for Ada');
    await page.getByLabel('Price (USD)').fill('12');
    await complete.click();
    await expectToast(page, 'Please upload a file for your product');
    await page.getByLabel('Choose a file').setInputFiles({
      name: 'concepts.zip',
      mimeType: 'application/zip',
      buffer: Buffer.alloc(2048, 1),
    });
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByText('File uploaded successfully!').waitFor();
    await page.getByLabel('Blur level').fill('7');
    await complete.click();
    await expectToast(page, 'Product created successfully!');
    await page.waitForURL('**/dashboard');
    await page.getByText('Logo concepts for Ada').first().waitFor();
    // All three steps are done: the dashboard no longer offers to resume.
    expect(await page.getByRole('region', { name: 'Finish setting up your account' }).count()).toBe(
      0,
    );
    const { products } = await (await browser.context.request.get('/api/products/mine')).json();
    expect(products).toEqual([
      expect.objectContaining({
        title: 'Logo concepts for Ada',
        price: '12.00',
        currency: 'USD',
        status: 'draft',
        previewEnabled: true,
        previewBlurPercentage: 70,
      }),
    ]);

    const profile = await (await browser.context.request.get('/api/profile')).json();
    expect(profile).toMatchObject({ role: 'creator', payoutMethod: 'payoneer' });
    const { destination } = await (
      await browser.context.request.get('/api/payouts/destination')
    ).json();
    expect(destination).toMatchObject({
      method: 'payoneer',
      emailMasked: 'a•••@payoneer.example.com',
    });
    await page.close();
  });
});

describe('signed-in header', () => {
  it('Logout in the avatar menu really ends the session', async () => {
    await signUpSeller(browser.context);
    const page = await browser.open('/pricing');
    const menu = await openAccountMenu(page);
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Log in' })
      .waitFor();
    // Signed out: no session cookie is left, so the session check says "nobody" (issue 29).
    const session = await browser.context.request.get('/api/auth/session');
    expect(session.status()).toBe(200);
    expect(await session.json()).toEqual({ user: null });
    await page.close();
  });
});
