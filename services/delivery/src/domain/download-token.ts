import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 1;
const ID_BYTES = 16;
const MAC_BYTES = 32;
const TOKEN_BYTES = 1 + ID_BYTES + 4 + MAC_BYTES;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{71}$/;

/** What a download token stands for. Only `grantId` and `expiresAt` travel in it. */
export interface TokenClaims {
  grantId: string;
  purchaseId: string;
  /** The file; null for a ZIP of every file of the purchase. */
  fileId: string | null;
  /** Whole seconds. */
  expiresAt: Date;
}

/** The part of a token that can be read before its signature is checked. */
export interface TokenHeader {
  grantId: string;
  expiresAt: Date;
  /** Checks the signature against the grant's purchase and file (null: all files), in constant time. */
  signedFor(key: string, purchaseId: string, fileId: string | null): boolean;
}

const uuidBytes = (uuid: string) => Buffer.from(uuid.replaceAll('-', ''), 'hex');

function uuidOf(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * What a ZIP token is signed for in place of a file: the nil UUID, which no file has, so a
 * file's token never passes for a ZIP's, nor a ZIP's for a file's.
 */
const ALL_FILES = '00000000-0000-0000-0000-000000000000';

/** The MAC covers the purchase and file too, so a token is bound to them although it does not carry them. */
function mac(key: string, body: Buffer, purchaseId: string, fileId: string | null): Buffer {
  return createHmac('sha256', key)
    .update('lockdrop.download\0')
    .update(body)
    .update(uuidBytes(purchaseId))
    .update(uuidBytes(fileId ?? ALL_FILES))
    .digest();
}

/**
 * `/dl/<token>`: 71 URL-safe characters — version, a random grant id, the expiry, HMAC-SHA256.
 * Nothing about the buyer, the purchase or the file can be read from it, and changing any
 * character invalidates it.
 */
export function signDownloadToken(key: string, claims: TokenClaims): string {
  const body = Buffer.alloc(1 + ID_BYTES + 4);
  body.writeUInt8(VERSION, 0);
  uuidBytes(claims.grantId).copy(body, 1);
  body.writeUInt32BE(Math.floor(claims.expiresAt.getTime() / 1000), 1 + ID_BYTES);
  return Buffer.concat([body, mac(key, body, claims.purchaseId, claims.fileId)]).toString(
    'base64url',
  );
}

/** Null when the token is not one of ours in shape; the signature is checked by `signedFor`. */
export function readDownloadToken(token: string): TokenHeader | null {
  if (!TOKEN_PATTERN.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  // base64url has more than one spelling of the last character; only the canonical one is accepted.
  if (bytes.length !== TOKEN_BYTES || bytes.toString('base64url') !== token || bytes[0] !== VERSION)
    return null;
  const body = bytes.subarray(0, 1 + ID_BYTES + 4);
  const signature = bytes.subarray(body.length);
  return {
    grantId: uuidOf(body.subarray(1, 1 + ID_BYTES)),
    expiresAt: new Date(body.readUInt32BE(1 + ID_BYTES) * 1000),
    signedFor: (key, purchaseId, fileId) =>
      timingSafeEqual(signature, mac(key, body, purchaseId, fileId)),
  };
}
