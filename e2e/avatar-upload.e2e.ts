import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpSeller } from './support/accounts';
import { launchBrowser, type Browser } from './support/browser';
import { expectToast } from './support/toasts';

const PHONE = { width: 375, height: 667 };
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  await signUpSeller(browser.context);
});
afterAll(async () => {
  await browser?.close();
});

// Issue 29: the avatar could only be a URL, and errors showed raw API text.
describe('/settings profile picture on a phone', () => {
  it('uploads a picture, which the server resizes; the account menu shows it; it can be removed', async () => {
    const page = await browser.open('/settings', PHONE);
    const profile = page.getByRole('region', { name: 'Profile' });
    expect(await profile.getByLabel('Avatar URL').count()).toBe(0);
    const photo = await sharp({
      create: { width: 1600, height: 1600, channels: 3, background: '#0e7490' },
    })
      .jpeg()
      .toBuffer();
    await profile
      .getByLabel('Choose a profile picture')
      .setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expectToast(page, 'Profile picture updated');
    const menuAvatar = page.getByRole('button', { name: 'Open account menu' }).locator('img');
    await expect.poll(() => menuAvatar.getAttribute('src')).toMatch(/^\/api\/avatars\/.+\.png$/);
    await expect
      .poll(() => menuAvatar.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(256);

    await page.reload({ waitUntil: 'networkidle' });
    await expect.poll(() => menuAvatar.getAttribute('src')).toMatch(/^\/api\/avatars\//);
    await profile.getByRole('button', { name: 'Remove picture' }).click();
    await expectToast(page, 'Profile picture removed');
    await expect.poll(() => menuAvatar.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/);
    await page.close();
  });

  it('a file that is no picture gets a sentence under the field, not API text', async () => {
    const page = await browser.open('/settings', PHONE);
    const profile = page.getByRole('region', { name: 'Profile' });
    await profile.getByLabel('Choose a profile picture').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('these are my notes, not a picture'),
    });
    const alert = profile.getByRole('alert');
    await expect
      .poll(() => alert.innerText())
      .toBe('Your picture must be an image (PNG, JPEG, WebP, GIF or SVG)');
    const { x, width } = (await alert.boundingBox())!;
    expect(x + width).toBeLessThanOrEqual(PHONE.width);
    await page.close();
  });
});
