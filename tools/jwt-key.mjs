// `npm run jwt-key`: prints a JWT_PRIVATE_KEYS value for identity with one new Ed25519 key.
// To rotate, pass the current value in JWT_PRIVATE_KEYS: the new key is appended (it signs from
// the next deploy on) and the old ones stay published so tokens they signed keep verifying.
import { generateKeyPairSync, randomUUID } from 'node:crypto';

const { privateKey } = generateKeyPairSync('ed25519');
const { kty, crv, d, x } = privateKey.export({ format: 'jwk' });
const current = process.env.JWT_PRIVATE_KEYS?.trim();
const keys = current ? JSON.parse(current).keys : [];
keys.push({ kty, crv, d, x, kid: randomUUID() });
process.stdout.write(`${JSON.stringify({ keys })}\n`);
