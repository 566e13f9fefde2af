export {
  createTokenVerifier,
  type TokenVerifier,
  type AuthUser,
  ACCESS_TOKEN_ISSUER,
  ACCESS_TOKEN_AUDIENCE,
} from './verifier.js';
export { authPlugin, ACCESS_COOKIE, type AuthPluginOptions } from './plugin.js';
export {
  BUYER_COOKIE,
  RECEIPT_COOKIE,
  hashBrowserKey,
  newBearerSecret,
  newBrowserKey,
  sha256Hex,
} from './browser-keys.js';
export { createSecretBox, parseSecretKeys, type SecretBox, type SecretKey } from './secret-box.js';
