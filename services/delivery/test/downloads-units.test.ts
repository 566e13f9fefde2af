import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from '@lockdrop/config';
import { describe, expect, it } from 'vitest';
import { configSchema } from '../src/config.js';
import { parseRange } from '../src/domain/byte-range.js';
import { readDownloadToken, signDownloadToken } from '../src/domain/download-token.js';
import { attachmentDisposition } from '../src/domain/file-name.js';

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-0', { kind: 'partial', range: { start: 0, end: 0 } }],
    ['bytes=10-', { kind: 'partial', range: { start: 10, end: 99 } }],
    ['bytes=-200', { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=90-500', { kind: 'partial', range: { start: 90, end: 99 } }],
    ['BYTES=5-6', { kind: 'partial', range: { start: 5, end: 6 } }],
    ['bytes = 5-6', { kind: 'full' }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=9-3', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=-', { kind: 'full' }],
    ['bytes=0-1,3-4', { kind: 'full' }],
    ['items=0-1', { kind: 'full' }],
  ])('%s of 100 bytes → %j', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});

describe('download tokens', () => {
  const key = 'k'.repeat(32);
  const claims = {
    grantId: randomUUID(),
    purchaseId: randomUUID(),
    fileId: randomUUID(),
    expiresAt: new Date(1_900_000_000_000),
  };

  it('carry the grant id and expiry, and verify only for their purchase, file and key', () => {
    const token = signDownloadToken(key, claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]{71}$/);
    expect(token).not.toContain(claims.purchaseId.replaceAll('-', '').slice(0, 8));
    const header = readDownloadToken(token)!;
    expect(header.grantId).toBe(claims.grantId);
    expect(header.expiresAt).toEqual(claims.expiresAt);
    expect(header.signedFor(key, claims.purchaseId, claims.fileId)).toBe(true);
    expect(header.signedFor(key, randomUUID(), claims.fileId)).toBe(false);
    expect(header.signedFor(key, claims.purchaseId, randomUUID())).toBe(false);
    expect(header.signedFor('x'.repeat(32), claims.purchaseId, claims.fileId)).toBe(false);
  });

  it('refuse anything not shaped like one', () => {
    const token = signDownloadToken(key, claims);
    expect(readDownloadToken(token.slice(1))).toBeNull();
    expect(readDownloadToken(`${token}A`)).toBeNull();
    expect(readDownloadToken(token.replace(/^./, 'C'))).toBeNull(); // version byte
    expect(readDownloadToken('../../etc/passwd')).toBeNull();
  });
});

describe('attachmentDisposition', () => {
  it.each([
    ['report.pdf', `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`],
    [
      'naïve café.txt',
      `attachment; filename="na_ve caf_.txt"; filename*=UTF-8''na%C3%AFve%20caf%C3%A9.txt`,
    ],
    [
      "it's (final) 100%.zip",
      `attachment; filename="it's (final) 100_.zip"; filename*=UTF-8''it%27s%20%28final%29%20100%25.zip`,
    ],
    ['a"b\r\nc.bin', `attachment; filename="a_bc.bin"; filename*=UTF-8''a_bc.bin`],
    ['..\\..\\secret.txt', `attachment; filename="secret.txt"; filename*=UTF-8''secret.txt`],
    ['evil\u202Egpj.exe', `attachment; filename="evilgpj.exe"; filename*=UTF-8''evilgpj.exe`],
  ])('%j', (name, expected) => {
    expect(attachmentDisposition(name)).toBe(expected);
  });
});

describe('DOWNLOAD_SIGNING_KEY', () => {
  const base = { DATA_DIR: '/tmp/delivery' };

  it('has a development default, but a production start without it fails config validation', () => {
    expect(loadConfig(configSchema, base).DOWNLOAD_SIGNING_KEY.length).toBeGreaterThanOrEqual(32);
    expect(() => loadConfig(configSchema, { ...base, NODE_ENV: 'production' })).toThrow(
      /DOWNLOAD_SIGNING_KEY: must be set in production/,
    );
    const key = 'p'.repeat(32);
    expect(
      loadConfig(configSchema, { ...base, NODE_ENV: 'production', DOWNLOAD_SIGNING_KEY: key })
        .DOWNLOAD_SIGNING_KEY,
    ).toBe(key);
    expect(() => loadConfig(configSchema, { ...base, DOWNLOAD_SIGNING_KEY: 'too-short' })).toThrow(
      ConfigError,
    );
  });

  it.each([
    'compose-local-download-signing-key-change-me',
    'lockdrop-development-download-signing-key',
    'REPLACE_ME-with-a-long-random-download-signing-key',
    'an-example-download-signing-key-of-enough-length',
  ])('refuses the published example key %j in production', (key) => {
    expect(() =>
      loadConfig(configSchema, { ...base, NODE_ENV: 'production', DOWNLOAD_SIGNING_KEY: key }),
    ).toThrow(/DOWNLOAD_SIGNING_KEY: must be set in production to a private random value/);
  });
});
