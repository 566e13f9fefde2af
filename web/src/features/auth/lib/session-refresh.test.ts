import { describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR } from '../../../lib/api';
import { needsRefresh, retryDelays, withRetries } from './session-refresh';

describe('silent session refresh', () => {
  it('refreshes once 90 seconds or less remain', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(needsRefresh('2026-01-01T12:01:31Z', now)).toBe(false);
    expect(needsRefresh('2026-01-01T12:01:30Z', now)).toBe(true);
    expect(needsRefresh('2026-01-01T11:59:00Z', now)).toBe(true);
  });

  it('backs off from 200 ms, doubling, within 30 seconds', () => {
    const delays = retryDelays();
    expect(delays).toEqual([200, 400, 800, 1600, 3200, 6400, 12800]);
    expect(delays.reduce((sum, delay) => sum + delay, 0)).toBeLessThanOrEqual(30_000);
  });

  it('retries network failures and gateway errors, not a refused session', async () => {
    const sleep = vi.fn(async () => undefined);
    const flaky = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(NETWORK_ERROR, 0, 'offline'))
      .mockRejectedValueOnce(new ApiError('http_503', 503, 'unavailable'))
      .mockResolvedValueOnce('ok');
    await expect(withRetries(flaky, sleep)).resolves.toBe('ok');
    expect(sleep.mock.calls).toEqual([[200], [400]]);

    const refused = vi
      .fn()
      .mockRejectedValue(new ApiError('unauthorized', 401, 'Auth session missing!'));
    await expect(withRetries(refused, sleep)).rejects.toThrow('Auth session missing!');
    expect(refused).toHaveBeenCalledTimes(1);
  });
});
