import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  RESET_SUBJECT,
  VERIFY_SUBJECT,
  linkIn,
  newAccount,
  signInThroughUi,
  signUpSeller,
  waitForMail,
} from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { expectToast } from './support/toasts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
// One browser profile per file: every journey starts signed out.
beforeEach(async () => {
  await browser.context.clearCookies();
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function logOutThroughAvatarMenu(page: Page) {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  const menu = page.getByRole('menu', { name: 'My Account' });
  await menu.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await nav(page).getByRole('link', { name: 'Log in' }).waitFor();
}

describe('a new seller', () => {
  it('signs up, opens the verification link from the mailbox, signs in with "Remember me", reaches /dashboard and signs out', async () => {
    const person = newAccount('journey');
    const page = await browser.open('/signup');
    await page.getByLabel('Full name').fill(person.fullName);
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectToast(page, 'Account Created!', 'Please check your email to verify your account');
    await page.waitForURL('**/dashboard');

    const mail = await waitForMail(page, { to: person.email, subject: VERIFY_SUBJECT });
    await page.goto(linkIn(mail, '/api/auth/verify-email'), { waitUntil: 'networkidle' });
    expect(new URL(page.url()).pathname).toBe('/email-verified');
    await page.getByRole('heading', { level: 1, name: 'E-mail verified' }).waitFor();
    // Neither buyer nor seller is assumed; a new seller goes on to set up the account, which can
    // be skipped, and the dashboard offers it.
    await page.getByRole('link', { name: 'Go to my purchases' }).waitFor();
    await page.getByRole('link', { name: 'Start selling' }).click();
    await page.waitForURL('**/onboarding');
    await page.getByRole('heading', { name: 'What brings you to Lockdrop?' }).waitFor();
    await page.getByRole('link', { name: 'Skip for now' }).click();
    await page.waitForURL('**/dashboard');
    const resume = page.getByRole('region', { name: 'Finish setting up your account' });
    await resume.getByText('0 of 3 steps done').waitFor();
    expect(await resume.getByRole('link', { name: 'Resume setup' }).getAttribute('href')).toBe(
      '/onboarding',
    );
    // Still the same session, now saying the e-mail is verified.
    await page.goto('/settings', { waitUntil: 'networkidle' });
    await page.getByRole('region', { name: 'Profile' }).getByText('E-mail verified').waitFor();

    await logOutThroughAvatarMenu(page);
    await page.goto('/login', { waitUntil: 'networkidle' });
    await signInThroughUi(page, person, { remember: true });
    await expectToast(page, 'Welcome back!', "You've been signed in successfully");
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    const refresh = (await browser.context.cookies()).find(
      (cookie) => cookie.name === 'ld_refresh',
    );
    // Remembered: a persistent cookie of about 30 days rather than a browser-session cookie.
    expect(refresh?.expires ?? -1).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600);

    await logOutThroughAvatarMenu(page);
    await page.goto('/settings', { waitUntil: 'networkidle' });
    await page.waitForURL('**/login?redirectTo=%2Fsettings');
    await page.close();
  });

  it('reads its verification e-mail once more from an expired or used link and can ask for a new one', async () => {
    const person = await signUpSeller(browser.context);
    const mail = await waitForMail(browser.context, { to: person.email, subject: VERIFY_SUBJECT });
    const page = await browser.open(linkIn(mail, '/api/auth/verify-email'));
    await page.getByRole('heading', { name: 'E-mail verified' }).waitFor();
    await page.goto(linkIn(mail, '/api/auth/verify-email'), { waitUntil: 'networkidle' });
    await page
      .getByRole('heading', { name: 'This link is invalid or has already been used' })
      .waitFor();
    await page.getByRole('button', { name: 'Resend verification e-mail' }).click();
    await expectToast(page, 'Verification e-mail sent');
    await page.close();
  });
});

describe('protected routes', () => {
  it.each(['/settings', '/onboarding'])(
    '%s redirects a signed-out visitor to /login and comes back after sign-in',
    async (path) => {
      const person = await signUpSeller(browser.context);
      await browser.context.clearCookies();
      const page = await browser.open(path);
      await page.waitForURL(`**/login?redirectTo=${encodeURIComponent(path)}`);
      await signInThroughUi(page, person);
      await page.waitForURL(`**${path}`);
      await page.close();
    },
  );
});

describe('sign-in and sign-up validation (spec §5)', () => {
  it("says 'Missing Information' when sign-in fields are empty, and sends nothing", async () => {
    const page = await browser.open('/login');
    let posted = false;
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/sign-in')) posted = true;
    });
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectToast(page, 'Missing Information', 'Please fill in all fields');
    expect(
      await page
        .getByLabel('E-mail', { exact: true })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    expect(await page.getByLabel('E-mail', { exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(posted).toBe(false);
    await page.close();
  });

  it("says 'Missing Information', 'Weak Password' and 'Terms Required' on sign-up", async () => {
    const page = await browser.open('/signup');
    const submit = page.getByRole('button', { name: 'Create account' });
    await submit.click();
    await expectToast(page, 'Missing Information', 'Please fill in all fields');

    await page.getByLabel('Full name').fill('Ada Obi');
    await page.getByLabel('E-mail', { exact: true }).fill('ada@example.com');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await submit.click();
    await expectToast(page, 'Weak Password', 'Password must be at least 8 characters long');
    const password = page.getByLabel('Password', { exact: true });
    const describedBy = (await password.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ')[0]}"]`).innerText()).toBe(
      'Password must be at least 8 characters long',
    );

    await password.fill('long enough password');
    await submit.click();
    await expectToast(
      page,
      'Terms Required',
      'Please accept the terms of service and privacy policy',
    );
    await page.close();
  });

  it("says 'Sign In Failed' with the server's message for a wrong password", async () => {
    const person = await signUpSeller(browser.context);
    await browser.context.clearCookies();
    const page = await browser.open('/login');
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    const submit = page.getByRole('button', { name: /Sign in|Signing in/ });
    await submit.click();
    await expectToast(page, 'Sign In Failed', 'Invalid login credentials');
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.close();
  });

  it("says 'Sign Up Failed' when the e-mail already has an account", async () => {
    const person = await signUpSeller(browser.context);
    await browser.context.clearCookies();
    const page = await browser.open('/signup');
    await page.getByLabel('Full name').fill('Someone Else');
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill('another password');
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectToast(page, 'Sign Up Failed', 'An account with this e-mail already exists');
    await page.close();
  });
});

describe('the /lockdrop forms', () => {
  it('sign up and sign in for real, with "Remember me for 30 days" and the password hint', async () => {
    const person = newAccount('brand');
    const page = await browser.open('/lockdrop/signup');
    expect(await page.getByText('Must be at least 8 characters').isVisible()).toBe(true);
    await page.getByLabel('Full name').fill(person.fullName);
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard');
    await logOutThroughAvatarMenu(page);

    await page.goto('/lockdrop/login', { waitUntil: 'networkidle' });
    expect(await page.getByLabel('Remember me for 30 days').isVisible()).toBe(true);
    await signInThroughUi(page, person, { path: '/lockdrop/login' });
    await page.waitForURL('**/dashboard');
    await page.close();
  });
});

describe('forgotten password', () => {
  it('sends a reset link to the mailbox; the new password signs in, the old one no longer does', async () => {
    const person = await signUpSeller(browser.context, { verified: true });
    await browser.context.clearCookies();
    const page = await browser.open('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    // The URL changes before the lazily loaded screen replaces the login form, whose E-mail
    // field would otherwise take the typing (then the reset form is sent empty).
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();

    const mail = await waitForMail(page, { to: person.email, subject: RESET_SUBJECT });
    await page.goto(linkIn(mail, '/reset-password?token='), { waitUntil: 'networkidle' });
    const newPassword = 'a brand new passphrase';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Update password' }).click();
    await expectToast(page, 'Password updated');
    await page.waitForURL('**/login');

    await page.getByLabel('E-mail', { exact: true }).fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expectToast(page, 'Sign In Failed');
    await signInThroughUi(page, { email: person.email, password: newPassword });
    await page.waitForURL('**/dashboard');

    await page.goto(linkIn(mail, '/reset-password?token='), { waitUntil: 'networkidle' });
    await page.getByLabel('New password', { exact: true }).fill('yet another password');
    await page.getByLabel('Confirm new password').fill('yet another password');
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await page.close();
    // A long journey: four password hashes (argon2id, memory-hard by design) and a mail relay
    // round trip; on a loaded CI machine it needs more than the default 30 s.
  }, 60_000);
});

describe('Google sign-in', () => {
  it('hides Continue with Google on Log in and Sign up when the server has no Google client', async () => {
    for (const path of ['/login', '/signup']) {
      // `open` waits for the network to go idle, so identity has answered which providers exist.
      const page = await browser.open(path);
      await page.getByLabel('E-mail', { exact: true }).waitFor();
      expect(await page.getByText('Continue with Google').count()).toBe(0);
      expect(await page.getByText('or', { exact: true }).count()).toBe(0);
      await page.close();
    }
  });
});
