import sharp from 'sharp';
import { AVATAR_PATH_PATTERN } from '@lockdrop/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  multipart,
  startDelivery,
  type DeliveryHarness,
  type TestUser,
} from './support/harness.js';

let delivery: DeliveryHarness;
beforeAll(async () => {
  delivery = await startDelivery();
});
afterAll(() => delivery?.close());

const upload = (user: TestUser | null, name: string, bytes: Buffer) => {
  const form = multipart(name, bytes);
  return delivery.app.inject({
    method: 'POST',
    url: '/api/avatars',
    headers: { 'content-type': form.contentType, ...(user ? { authorization: user.auth } : {}) },
    payload: form.body,
  });
};

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#0f766e' } })
    .withMetadata({ exif: { IFD0: { Copyright: 'phone' } } })
    .jpeg()
    .toBuffer();

// Issue 29: the avatar could only be set as a URL. It is uploaded like a store logo.
describe('avatar upload (POST /api/avatars)', () => {
  it('a free account uploads a photo; it is resized, re-encoded as PNG and served publicly', async () => {
    const user = await delivery.user('free');
    const response = await upload(user, 'me.jpg', await photo(2000, 1000));
    expect(response.statusCode).toBe(201);
    const body = response.json<{ avatarUrl: string; width: number; height: number }>();
    expect(body).toMatchObject({ width: 256, height: 128 });
    expect(AVATAR_PATH_PATTERN.exec(body.avatarUrl)?.[1]).toBe(user.id);

    const served = await delivery.app.inject({ url: body.avatarUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toContain('immutable');
    const metadata = await sharp(served.rawPayload).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 256, 128]);
    expect(metadata.exif).toBeUndefined();
  });

  it('refuses what is not a picture, in words for people, and anonymous uploads', async () => {
    const user = await delivery.user('free');
    const text = await upload(user, 'notes.png', Buffer.from('not an image at all'));
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toEqual({
      code: 'invalid_image',
      message: 'Your picture must be an image (PNG, JPEG, WebP, GIF or SVG)',
    });
    expect((await upload(null, 'me.jpg', await photo(10, 10))).statusCode).toBe(401);
  });

  it('another account cannot read a picture under someone else’s id', async () => {
    const alice = await delivery.user('free');
    const bob = await delivery.user('free');
    const { avatarUrl } = (await upload(alice, 'a.jpg', await photo(64, 64))).json<{
      avatarUrl: string;
    }>();
    const underBob = avatarUrl.replace(alice.id, bob.id);
    const response = await delivery.app.inject({ url: underBob });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('avatar_not_found');
  });
});
