import type { AuthUser } from '@lockdrop/auth';

/**
 * The one rule of what an API key (issue 27) may see or act on: its seller's own rows of its own
 * mode — a `ld_test_` key test-mode rows only, a `ld_live_` key live ones only. Everything else
 * is answered as not found, so a key learns nothing about it. Null without a key.
 */
export function keyMode(user: AuthUser): { testMode: boolean } | null {
  return user.apiKey ? { testMode: user.apiKey.mode === 'test' } : null;
}

export function keyOwns(
  user: AuthUser,
  row: { sellerId: string | null; testMode: boolean },
): boolean {
  const mode = keyMode(user);
  return mode !== null && row.sellerId === user.id && row.testMode === mode.testMode;
}
