import { readFile } from 'node:fs/promises';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller, waitForMail, type TestAccount } from './support/accounts';
import { baseUrl, launchBrowser, type Browser } from './support/browser';
import { expectToast } from './support/toasts';

/**
 * Issue 29, item 11: a seller who turns on two-factor gets ten recovery codes once (Copy,
 * Download), and a lost phone no longer locks them out — the sign-in's MFA step takes a code,
 * once, and says how many remain.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: baseUrl,
  });
});
afterAll(async () => {
  await browser?.close();
});

const section = (page: Page, name: string) => page.getByRole('region', { name });

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page
    .getByRole('menu', { name: 'My Account' })
    .getByRole('menuitem', { name: 'Logout' })
    .click();
  await page.waitForURL((url) => !url.pathname.startsWith('/settings'));
}

async function passwordStep(page: Page, person: TestAccount) {
  await page.goto('/login?redirectTo=%2Fsettings', { waitUntil: 'networkidle' });
  await page.getByLabel('E-mail', { exact: true }).fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
}

async function useRecoveryCode(page: Page, code: string) {
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
}

describe('MFA recovery codes', () => {
  it('turn MFA on, save the codes, sign out, sign in with one; the same code is refused; a new set voids the old', async () => {
    const person = await signUpSeller(browser.context, { verified: true });
    const page = await browser.open('/settings');
    const mfa = section(page, 'Two-factor authentication');
    await mfa.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = await mfa.getByTestId('mfa-secret').innerText();
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    await mfa.getByLabel('Authentication code').fill(totp.generate());
    await mfa.getByRole('button', { name: 'Verify and turn on' }).click();

    // Shown once, ten of them.
    await mfa.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    const codes = await mfa.getByTestId('recovery-code').allInnerTexts();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      mfa.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('lockdrop-recovery-codes.txt');
    const saved = await readFile((await download.path())!, 'utf8');
    for (const code of codes) expect(saved).toContain(code);

    await mfa.getByRole('button', { name: 'Copy codes' }).click();
    await expectToast(page, 'Recovery codes copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    for (const code of codes) expect(copied).toContain(code);

    await mfa.getByRole('button', { name: "I've saved my codes" }).click();
    expect(await mfa.getByTestId('recovery-codes-remaining').innerText()).toContain(
      '10 of 10 recovery codes left',
    );
    // Never shown again: a reload lists none.
    await page.reload({ waitUntil: 'networkidle' });
    await section(page, 'Two-factor authentication')
      .getByTestId('recovery-codes-remaining')
      .waitFor();
    expect(await page.getByTestId('recovery-code').count()).toBe(0);

    // Lost phone: sign in with a recovery code instead of the app's.
    await signOut(page);
    await passwordStep(page, person);
    await useRecoveryCode(page, codes[0]!);
    await page.waitForURL('**/settings');
    await expectToast(page, 'Signed in with a recovery code', 'You have 9 recovery codes left.');
    await expect
      .poll(() => page.getByTestId('recovery-codes-remaining').innerText())
      .toContain('9 of 10 recovery codes left');
    const mail = await waitForMail(page, {
      to: person.email,
      subject: 'A recovery code was used',
    });
    expect(mail.text).toContain('You have 9 recovery codes left.');

    // Each code works once.
    await signOut(page);
    await passwordStep(page, person);
    await useRecoveryCode(page, codes[0]!);
    await expectToast(page, 'Sign In Failed', 'Invalid verification code');
    expect(new URL(page.url()).pathname).toBe('/login');

    // Regenerable: a new set (the sign-in just now is the proof of identity) voids the old one.
    await passwordStep(page, person);
    await useRecoveryCode(page, codes[1]!);
    await page.waitForURL('**/settings');
    const settings = section(page, 'Two-factor authentication');
    await expect
      .poll(() => settings.getByTestId('recovery-codes-remaining').innerText())
      .toContain('8 of 10 recovery codes left');
    await settings.getByRole('button', { name: 'Make new recovery codes' }).click();
    await settings.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
    const fresh = await settings.getByTestId('recovery-code').allInnerTexts();
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    await settings.getByRole('button', { name: "I've saved my codes" }).click();
    expect(await settings.getByTestId('recovery-codes-remaining').innerText()).toContain(
      '10 of 10 recovery codes left',
    );

    await signOut(page);
    await passwordStep(page, person);
    await useRecoveryCode(page, codes[2]!);
    await expectToast(page, 'Sign In Failed', 'Invalid verification code');
    await passwordStep(page, person);
    await useRecoveryCode(page, fresh[0]!);
    await page.waitForURL('**/settings');
    await expectToast(page, 'Signed in with a recovery code', 'You have 9 recovery codes left.');
    await page.close();
  }, 120_000);
});
