import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

/** argon2id with the library defaults (m=19 MiB, t=2, p=1 — OWASP's recommendation), random salt per hash. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verified against when the account does not exist, so a wrong e-mail takes as long as a wrong password.
const decoyHash = hash('decoy password that never matches');

export async function verifyPassword(
  passwordHash: string | null,
  password: string,
): Promise<boolean> {
  if (!passwordHash) {
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
