import { createTokenVerifier, type TokenVerifier } from '@lockdrop/auth';
import { AppError, type HttpServer } from '@lockdrop/http';
import {
  createMailer,
  dkimFromEnv,
  mailboxSchema,
  openMailbox,
  startMailRelay,
} from '@lockdrop/mailer';
import { createServiceApp, type Infrastructure } from '@lockdrop/service';
import type { IdentityConfig } from './config.js';
import { migrations } from './db/migrations/index.js';
import { deleteExpired } from './db/throttle.repo.js';
import { createAccountService } from './domain/accounts.js';
import { createApiKeyService } from './domain/api-keys.js';
import { createContactService } from './domain/contact.js';
import { createEmails } from './domain/emails.js';
import { createGoogleSignIn } from './domain/google.js';
import { createMfaService } from './domain/mfa.js';
import { createProfileService } from './domain/profiles.js';
import { createReauthenticationService } from './domain/reauthentication.js';
import { createSessionService } from './domain/sessions.js';
import { createSignInService } from './domain/sign-in.js';
import { createTeamService } from './domain/teams.js';
import { createThrottle } from './domain/throttle.js';
import { subscribeToAuditedActions } from './events/audited-actions.consumer.js';
import { subscribeToPlanChanges } from './events/plan-changed.consumer.js';
import { loadKeyRing } from './keys/key-ring.js';
import { apiKeyIntrospectionRoutes, apiKeyRoutes } from './routes/api-keys.js';
import { authRoutes } from './routes/auth.js';
import { contactRoutes } from './routes/contact.js';
import { createSessionGuard } from './routes/current-session.js';
import { devMailboxRoutes } from './routes/dev-mailbox.js';
import { mfaRoutes } from './routes/mfa.js';
import { oauthRoutes } from './routes/oauth.js';
import { profileRoutes } from './routes/profile.js';
import { reauthenticateRoutes } from './routes/reauthenticate.js';
import { sessionRoutes } from './routes/sessions.js';
import { teamInternalRoutes, teamRoutes } from './routes/teams.js';
import { wellKnownRoutes } from './routes/well-known.js';

const THROTTLE_SWEEP_MS = 10 * 60 * 1000;
/** Used when API_KEY_HASH_SECRET is unset (development, tests); production warns at start. */
const DEVELOPMENT_API_KEY_HASH_SECRET = 'lockdrop-development-api-key-hash-secret';

/** Accounts, sessions, e-mail verification, profiles, MFA; issues access tokens and publishes the JWKS. */
export async function buildApp(config: IdentityConfig): Promise<HttpServer> {
  // Identity verifies tokens with its own keys, which live in its (just migrated) schema when
  // not configured: the verifier is bound once they are loaded, before any request is served.
  const own: { verifier?: TokenVerifier } = {};
  const { app, infra } = await createServiceApp({
    name: 'identity',
    config,
    migrations,
    verifier: { verify: (token) => own.verifier!.verify(token) },
    sharedSchemas: [mailboxSchema],
  });
  try {
    await registerIdentity(app, infra, config, own);
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}

/** Keys, mail, domain services, routes and the plan consumer on top of the service kit. */
async function registerIdentity(
  app: HttpServer,
  { pool, bus }: Infrastructure,
  config: IdentityConfig,
  own: { verifier?: TokenVerifier },
): Promise<void> {
  const keys = await loadKeyRing({ configured: config.JWT_PRIVATE_KEYS, pool });
  own.verifier = createTokenVerifier({ jwks: keys.jwks });
  if (!config.JWT_PRIVATE_KEYS && config.NODE_ENV === 'production') {
    app.log.warn('JWT_PRIVATE_KEYS is not set: using signing keys generated into the database');
  }

  const mailer = await createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    pool,
    dkim: dkimFromEnv(config),
  });
  const mailRelay = startMailRelay({ pool, mailer, logger: app.log });
  const throttleSweep = setInterval(
    () => void deleteExpired(pool).catch(() => undefined),
    THROTTLE_SWEEP_MS,
  );
  throttleSweep.unref();

  const throttle = createThrottle(pool, {
    signInPerIp: config.SIGN_IN_PER_IP_LIMIT,
    passwordResetPerIp: config.PASSWORD_RESET_PER_IP_LIMIT,
  });
  const emails = createEmails(config.PUBLIC_URL);
  const sessions = createSessionService({
    pool,
    keys,
    reuseGraceSeconds: config.REFRESH_REUSE_GRACE_SECONDS,
  });
  const accounts = createAccountService({ pool, sessions, throttle, emails, mailRelay });
  const signIn = createSignInService({ pool, sessions, throttle, emails, mailRelay });
  const profiles = createProfileService({ pool });
  const mfa = createMfaService({ pool, throttle, emails, mailRelay });
  const reauthentication = createReauthenticationService({
    pool,
    sessions,
    mfa,
    throttle,
    emails,
    mailRelay,
  });
  const contact = createContactService({
    pool,
    throttle,
    emails,
    mailRelay,
    inbox: config.CONTACT_INBOX,
  });
  const google =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? createGoogleSignIn({
          pool,
          signIn,
          config: {
            clientId: config.GOOGLE_CLIENT_ID,
            clientSecret: config.GOOGLE_CLIENT_SECRET,
            issuer: config.GOOGLE_ISSUER,
            redirectUri: new URL('/api/auth/oauth/google/callback', config.PUBLIC_URL).toString(),
          },
        })
      : null;
  const guard = createSessionGuard(keys, sessions);
  const teams = createTeamService({
    pool,
    emails,
    mailRelay,
    reauthMaxAgeSeconds: config.REAUTH_MAX_AGE_SECONDS,
  });
  if (!config.API_KEY_HASH_SECRET && config.NODE_ENV === 'production') {
    app.log.warn('API_KEY_HASH_SECRET is not set: API-key hashes use the public development key');
  }
  const apiKeys = createApiKeyService({
    pool,
    keys,
    hashSecret: config.API_KEY_HASH_SECRET ?? DEVELOPMENT_API_KEY_HASH_SECRET,
  });

  app.decorateRequest('currentSession', null);
  // 429s say when to come back.
  app.addHook('onError', async (_request, reply, error) => {
    const details =
      error instanceof AppError
        ? (error.details as { retryAfterSeconds?: number } | undefined)
        : undefined;
    if (error instanceof AppError && error.status === 429 && details?.retryAfterSeconds) {
      reply.header('retry-after', String(details.retryAfterSeconds));
    }
  });

  authRoutes(app, { pool, accounts, signIn, sessions, guard, publicUrl: config.PUBLIC_URL });
  sessionRoutes(app, { sessions, guard });
  apiKeyRoutes(app, { apiKeys, guard, reauthMaxAgeSeconds: config.REAUTH_MAX_AGE_SECONDS });
  apiKeyIntrospectionRoutes(app, { apiKeys });
  teamRoutes(app, { teams, sessions, guard });
  teamInternalRoutes(app, { teams });
  mfaRoutes(app, { mfa, guard, reauthMaxAgeSeconds: config.REAUTH_MAX_AGE_SECONDS });
  reauthenticateRoutes(app, { reauthentication, guard });
  oauthRoutes(app, { google, publicUrl: config.PUBLIC_URL });
  profileRoutes(app, { profiles, accounts, guard });
  contactRoutes(app, { contact });
  wellKnownRoutes(app, { keys });
  // The mailbox shows password-reset links to anyone who can reach it: never with real mail, never in production.
  if (mailer.kind === 'mailbox' && config.NODE_ENV !== 'production') {
    devMailboxRoutes(app, { mailbox: await openMailbox(pool) });
  }

  const planChanges = await subscribeToPlanChanges({ bus, pool, profiles });
  const auditedActions = await subscribeToAuditedActions({ bus, pool, teams });
  app.addHook('onClose', async () => {
    clearInterval(throttleSweep);
    await planChanges.stop();
    await auditedActions.stop();
    await mailRelay.stop();
    await mailer.close();
  });
}
