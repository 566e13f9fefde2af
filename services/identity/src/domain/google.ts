import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import { withTransaction, type Pool, type PoolClient } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import {
  findIdentityUser,
  insertOAuthState,
  linkIdentity,
  takeOAuthState,
} from '../db/oauth.repo.js';
import { insertProfile } from '../db/profiles.repo.js';
import { revokeUserSessions } from '../db/sessions.repo.js';
import * as users from '../db/users.repo.js';
import { normalizeEmail, requireAccount, type Client } from './account.js';
import { enqueueProfileUpdated } from './profile-events.js';
import { hashToken, newToken } from './secrets.js';
import type { SignInResult, SignInService } from './sign-in.js';
import { deleteFactorFromBeforeVerification } from '../db/mfa.repo.js';

const PROVIDER = 'google';
const STATE_SECONDS = 10 * 60;

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});
const tokenResponseSchema = z.object({ id_token: z.string().min(1) });
const idTokenClaimsSchema = z.object({
  sub: z.string().min(1),
  email: z.email(),
  email_verified: z.union([z.boolean(), z.literal('true')]).optional(),
  name: z.string().optional(),
  picture: z.string().optional(),
  nonce: z.string().optional(),
});

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  issuer: string;
  /** Our callback as registered with the provider. */
  redirectUri: string;
}

const oauthFailed = (code: string, message: string) => new AppError(code, 400, message);

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** Only paths on our own site: an open redirect after sign-in would be a phishing tool. */
export function safeRedirectPath(candidate: string | undefined): string {
  if (
    !candidate ||
    !candidate.startsWith('/') ||
    candidate.startsWith('//') ||
    candidate.includes('\\')
  )
    return '/dashboard';
  return candidate;
}

/**
 * "Sign in with Google" through OpenID Connect: authorization code with PKCE (S256), `state`
 * bound to the browser by a cookie and kept server-side, `nonce` checked in the ID token, whose
 * signature, issuer, audience and expiry are verified against the provider's published keys.
 */
export function createGoogleSignIn({
  pool,
  config,
  signIn,
}: {
  pool: Pool;
  config: GoogleConfig;
  signIn: SignInService;
}) {
  let discovery:
    Promise<{ metadata: z.infer<typeof discoverySchema>; keys: JWTVerifyGetKey }> | undefined;

  const discover = () => {
    discovery ??= (async () => {
      const response = await fetch(
        new URL(
          '.well-known/openid-configuration',
          config.issuer.endsWith('/') ? config.issuer : `${config.issuer}/`,
        ),
      );
      if (!response.ok) throw new Error(`OIDC discovery failed with HTTP ${response.status}`);
      const metadata = discoverySchema.parse(await response.json());
      return { metadata, keys: createRemoteJWKSet(new URL(metadata.jwks_uri)) };
    })();
    // A failed discovery must not be cached: the provider may be back on the next attempt.
    discovery.catch(() => {
      discovery = undefined;
    });
    return discovery;
  };

  const exchangeCode = async (code: string, codeVerifier: string) => {
    const { metadata } = await discover();
    const response = await fetch(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: config.redirectUri,
        client_id: config.clientId,
        client_secret: config.clientSecret,
        code_verifier: codeVerifier,
      }),
    });
    if (!response.ok)
      throw oauthFailed('oauth_failed', 'Google did not accept the sign-in. Please try again.');
    return tokenResponseSchema.parse(await response.json()).id_token;
  };

  const verifyIdToken = async (idToken: string, nonce: string) => {
    const { metadata, keys } = await discover();
    const { payload } = await jwtVerify(idToken, keys, {
      issuer: metadata.issuer,
      audience: config.clientId,
    }).catch(() => {
      throw oauthFailed('oauth_failed', 'Google sign-in could not be verified. Please try again.');
    });
    const claims = idTokenClaimsSchema.parse(payload);
    if (claims.nonce !== nonce)
      throw oauthFailed('oauth_failed', 'Google sign-in could not be verified. Please try again.');
    if (claims.email_verified !== true && claims.email_verified !== 'true') {
      throw oauthFailed('oauth_email_unverified', 'Your Google e-mail address is not verified.');
    }
    return { subject: claims.sub, email: normalizeEmail(claims.email), name: claims.name?.trim() };
  };

  /** The account this Google identity signs in to: already linked, linked now by e-mail, or new. */
  const resolveAccount = async (
    tx: PoolClient,
    identity: { subject: string; email: string; name?: string },
    correlationId: string,
  ) => {
    const linked = await findIdentityUser(tx, PROVIDER, identity.subject);
    if (linked) return linked;
    const existing = await users.findUserByEmail(tx, identity.email);
    if (existing) {
      if (!existing.emailVerified) {
        // Whoever registered this unverified address may not own it: their password and sessions go.
        await users.setPasswordHash(tx, existing.id, null);
        await revokeUserSessions(tx, existing.id, 'google_linked_unverified');
        await deleteFactorFromBeforeVerification(tx, existing.id);
        await users.markEmailVerified(tx, existing.id);
        const account = await requireAccount(tx, existing.id);
        await enqueueEvent(
          tx,
          createEvent(
            'user.email_verified',
            { userId: existing.id, email: existing.email },
            { correlationId },
          ),
        );
        await enqueueProfileUpdated(tx, account, correlationId);
      }
      await linkIdentity(tx, {
        provider: PROVIDER,
        subject: identity.subject,
        userId: existing.id,
        email: identity.email,
      });
      return existing.id;
    }
    const fullName = identity.name || identity.email.split('@')[0]!;
    const user = await users.insertUser(tx, {
      id: randomUUID(),
      email: identity.email,
      passwordHash: null,
      emailVerified: true,
    });
    const profile = await insertProfile(tx, { id: user.id, fullName });
    await linkIdentity(tx, {
      provider: PROVIDER,
      subject: identity.subject,
      userId: user.id,
      email: identity.email,
    });
    await enqueueEvent(
      tx,
      createEvent(
        'user.signed_up',
        { userId: user.id, email: user.email, fullName },
        { correlationId },
      ),
    );
    await enqueueProfileUpdated(tx, { user, profile }, correlationId);
    return user.id;
  };

  return {
    async start({
      redirectTo,
      persistent,
    }: {
      redirectTo?: string;
      persistent: boolean;
    }): Promise<{ url: string; state: string }> {
      const { metadata } = await discover();
      const state = newToken();
      const nonce = base64url(randomBytes(24));
      const codeVerifier = base64url(randomBytes(32));
      await insertOAuthState(pool, {
        stateHash: state.hash,
        provider: PROVIDER,
        nonce,
        codeVerifier,
        redirectTo: safeRedirectPath(redirectTo),
        persistent,
        lifetimeSeconds: STATE_SECONDS,
      });
      const url = new URL(metadata.authorization_endpoint);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: config.clientId,
        redirect_uri: config.redirectUri,
        scope: 'openid email profile',
        state: state.token,
        nonce,
        code_challenge: base64url(createHash('sha256').update(codeVerifier).digest()),
        code_challenge_method: 'S256',
      }).toString();
      return { url: url.toString(), state: state.token };
    },

    async callback(
      input: { code?: string; state?: string; error?: string; browserState?: string },
      client: Client,
      correlationId: string,
    ): Promise<{ result: SignInResult; redirectTo: string }> {
      if (input.error) throw oauthFailed('oauth_cancelled', 'Google sign-in was cancelled.');
      // The state must come back to the browser that started: otherwise someone is logging us in as them.
      if (!input.code || !input.state || input.state !== input.browserState) {
        throw oauthFailed(
          'oauth_state_mismatch',
          'Google sign-in expired or was started elsewhere. Please try again.',
        );
      }
      const saved = await takeOAuthState(pool, hashToken(input.state), PROVIDER);
      if (!saved)
        throw oauthFailed(
          'oauth_state_mismatch',
          'Google sign-in expired or was started elsewhere. Please try again.',
        );
      const identity = await verifyIdToken(
        await exchangeCode(input.code, saved.codeVerifier),
        saved.nonce,
      );
      const userId = await withTransaction(pool, (tx) =>
        resolveAccount(tx, identity, correlationId),
      );
      return {
        result: await signIn.finish(userId, saved.persistent, client),
        redirectTo: saved.redirectTo,
      };
    },
  };
}

export type GoogleSignIn = ReturnType<typeof createGoogleSignIn>;
