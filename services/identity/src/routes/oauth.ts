import { oauthProvidersSchema } from '@lockdrop/contracts';
import type { HttpServer } from '@lockdrop/http';
import { z } from 'zod';
import { authErrors } from '../domain/errors.js';
import type { GoogleSignIn } from '../domain/google.js';
import { clientOf, setOAuthStateCookie, setSessionCookies, takeOAuthStateCookie } from './http.js';

/** Google sign-in. Without GOOGLE_CLIENT_ID/SECRET the routes answer `oauth_not_configured` (404: not offered here; a 5xx would page whoever watches the error rate each time a bot follows the link). */
export function oauthRoutes(
  app: HttpServer,
  { google, publicUrl }: { google: GoogleSignIn | null; publicUrl: string },
): void {
  const tags = ['auth'];
  const onSite = (path: string, params: Record<string, string> = {}) => {
    const url = new URL(path, publicUrl);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  };

  app.get(
    '/api/auth/oauth/providers',
    { schema: { tags, response: { 200: oauthProvidersSchema } } },
    async () => ({
      google: google !== null,
    }),
  );

  app.get(
    '/api/auth/oauth/google/start',
    {
      schema: {
        tags,
        querystring: z.object({
          redirectTo: z.string().optional(),
          remember: z.enum(['true', 'false']).optional(),
        }),
      },
    },
    async (request, reply) => {
      if (!google) throw authErrors.oauthNotConfigured();
      const { url, state } = await google.start({
        redirectTo: request.query.redirectTo,
        persistent: request.query.remember === 'true',
      });
      setOAuthStateCookie(request, reply, state);
      return reply.redirect(url, 302);
    },
  );

  // Failures land on /login?error=<code> so the sign-in screen can say what happened.
  app.get(
    '/api/auth/oauth/google/callback',
    {
      schema: {
        tags,
        querystring: z.object({
          code: z.string().optional(),
          state: z.string().optional(),
          error: z.string().optional(),
        }),
      },
    },
    async (request, reply) => {
      if (!google) throw authErrors.oauthNotConfigured();
      const browserState = takeOAuthStateCookie(request, reply);
      try {
        const { result, redirectTo } = await google.callback(
          { ...request.query, browserState },
          clientOf(request),
          request.id,
        );
        if (result.kind === 'mfa') {
          return reply.redirect(
            onSite('/login', { mfaChallenge: result.challenge.challengeToken, redirectTo }),
            303,
          );
        }
        setSessionCookies(request, reply, result.session);
        return reply.redirect(onSite(redirectTo), 303);
      } catch (error) {
        const code = (error as { code?: string }).code;
        request.log.warn({ err: error }, 'google sign-in failed');
        return reply.redirect(
          onSite('/login', { error: code?.startsWith('oauth_') ? code : 'oauth_failed' }),
          303,
        );
      }
    },
  );
}
