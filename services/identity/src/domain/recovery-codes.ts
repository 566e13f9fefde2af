import { randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import type { Queryable } from '@lockdrop/db';
import { enqueueMail } from '@lockdrop/mailer';
import { findUserById } from '../db/users.repo.js';
import * as stored from '../db/recovery-codes.repo.js';
import type { Emails } from './emails.js';

/** Ten codes per set (issue 29, item 11): enough for years of lost phones, few enough to keep on paper. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * Crockford's base32 (no i, l, o, u): read off paper without confusing 1/l or 0/o. Ten
 * characters are 50 random bits, shown as `xxxxx-xxxxx`.
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CODE_LENGTH = 10;

/**
 * A code lives for years, unlike a 256-bit session token, and has only 50 bits: a fast hash of a
 * stolen table could be searched. scrypt (16 MiB, ~50 ms) with a salt per code makes every guess
 * cost that much and each code its own search. Checking all ten at sign-in stays under a second.
 */
const SCRYPT: ScryptOptions = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

const derive = (code: string, salt: Buffer) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(code, salt, KEY_LENGTH, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))),
  );

/** A typed code as stored: lower case, no spaces or dashes, Crockford's look-alikes folded. */
export function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '').replace(/[il]/g, '1').replace(/o/g, '0');
}

/** Six digits are an authenticator code; anything else typed at an MFA prompt is a recovery code. */
export const isTotpCode = (input: string) => /^\d{6}$/.test(input.replace(/\s/g, ''));

export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** `scrypt$<salt b64>$<key b64>`: what is stored, never the code. */
export async function hashRecoveryCode(code: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(normalizeRecoveryCode(code), salt);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

async function matches(codeHash: string, normalized: string): Promise<boolean> {
  const [scheme, salt, key] = codeHash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const presented = await derive(normalized, Buffer.from(salt, 'base64'));
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}

/** A fresh set of ten and their hashes; the codes are shown once and never stored. */
export async function newRecoveryCodeSet(): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: await Promise.all(codes.map(hashRecoveryCode)) };
}

/**
 * Spends `input` if it is one of the account's unused codes (inside the caller's transaction,
 * under a lock on the set) and e-mails the owner how many remain. Every unused code is checked,
 * not just up to the match, so the time taken says nothing about which one matched.
 * Answers the number left, or null when the code is not one of them.
 */
export async function spendRecoveryCode(
  tx: Queryable,
  userId: string,
  input: string,
  emails: Emails,
): Promise<number | null> {
  const normalized = normalizeRecoveryCode(input);
  if (normalized.length !== CODE_LENGTH) return null;
  const unused = await stored.findUnusedCodesForUpdate(tx, userId);
  let match: stored.StoredRecoveryCode | null = null;
  for (const code of unused) {
    if ((await matches(code.codeHash, normalized)) && !match) match = code;
  }
  if (!match) return null;
  await stored.markCodeUsed(tx, match.id);
  const remaining = unused.length - 1;
  const owner = await findUserById(tx, userId);
  if (owner) await enqueueMail(tx, emails.recoveryCodeUsed(owner.email, remaining));
  return remaining;
}
