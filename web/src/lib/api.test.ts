import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, CHECK_THE_FORM, NETWORK_ERROR, api } from './api';

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), {
          status,
          headers: { 'Content-Type': 'application/json' },
        }),
    ),
  );
}

describe('api', () => {
  it('returns the JSON body and sends cookies', async () => {
    answer(200, { ok: true });
    await expect(api('/api/thing')).resolves.toEqual({ ok: true });
    expect(vi.mocked(fetch).mock.calls[0]?.[1]).toMatchObject({
      credentials: 'include',
      method: 'GET',
    });
  });

  it('sends a JSON body', async () => {
    answer(200, {});
    await api('/api/contact', { method: 'POST', body: { name: 'Ada' } });
    expect(vi.mocked(fetch).mock.calls[0]?.[1]).toMatchObject({
      method: 'POST',
      body: '{"name":"Ada"}',
    });
  });

  it('throws an ApiError with the code, message and status of the error shape', async () => {
    answer(404, { error: { code: 'product_not_found', message: 'Product not found' } });
    const error = await api('/api/products/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'product_not_found',
      status: 404,
      message: 'Product not found',
    });
  });

  // Issue 29: a toast read "Invalid body.avatarUrl: …".
  it('words a refused field for people: the schema’s sentence, never the field path', async () => {
    answer(400, {
      error: {
        code: 'validation_failed',
        message: 'Invalid body.avatarUrl: Please upload a picture',
        details: [{ field: 'body.avatarUrl', message: 'Please upload a picture' }],
      },
    });
    await expect(api('/api/profile')).rejects.toMatchObject({
      code: 'validation_failed',
      message: 'Please upload a picture',
    });
    answer(400, {
      error: {
        code: 'validation_failed',
        message: 'Invalid body.role: Invalid option: expected one of …',
        details: [{ field: 'body.role', message: 'Invalid option: expected one of …' }],
      },
    });
    await expect(api('/api/profile')).rejects.toMatchObject({ message: CHECK_THE_FORM });
  });

  it('falls back to a generic message when the body is not the error shape', async () => {
    answer(502, '<html>Bad gateway</html>');
    await expect(api('/api/x')).rejects.toMatchObject({
      code: 'http_502',
      status: 502,
      message: 'An unexpected error occurred',
    });
  });

  it('turns a network failure into a network_error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(api('/api/x')).rejects.toMatchObject({ code: NETWORK_ERROR, status: 0 });
  });
});
