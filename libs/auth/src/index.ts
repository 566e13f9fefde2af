export {
  createTokenVerifier,
  type TokenVerifier,
  type AuthUser,
  type AuthApiKey,
  type AuthActor,
  ACCESS_TOKEN_ISSUER,
  ACCESS_TOKEN_AUDIENCE,
} from './verifier.js';
export { authPlugin, assertScope, ACCESS_COOKIE, type AuthPluginOptions } from './plugin.js';
export {
  BUYER_COOKIE,
  RECEIPT_COOKIE,
  hashBrowserKey,
  newBearerSecret,
  newBrowserKey,
  sha256Hex,
} from './browser-keys.js';
export { assertRecentAuth, requireRecentAuth, REAUTHENTICATION_REQUIRED } from './recent-auth.js';
export {
  createSecretBox,
  parseSecretKeys,
  refuseDevelopmentKey,
  secretKeysEnv,
  usesDevelopmentKey,
  type SecretBox,
  type SecretKey,
} from './secret-box.js';
export {
  STORE_ROLE_RIGHTS,
  NOT_ALLOWED_FOR_ROLE,
  assertActorMay,
  roleHasRight,
} from './store-rights.js';
