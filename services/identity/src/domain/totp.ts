import { Secret, TOTP } from 'otpauth';

const ISSUER = 'Lockdrop';
const PERIOD_SECONDS = 30;

function totpFor(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new 160-bit secret in base32, the form authenticator apps expect. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function otpauthUri(secret: string, email: string): string {
  return totpFor(secret, email).toString();
}

/**
 * The time step a code belongs to, allowing one step of clock drift either way, or null when
 * the code is wrong. Callers reject steps at or before the last accepted one (no replay).
 */
export function matchTotp(secret: string, code: string, now = Date.now()): number | null {
  const normalized = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(normalized)) return null;
  const delta = totpFor(secret).validate({ token: normalized, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
