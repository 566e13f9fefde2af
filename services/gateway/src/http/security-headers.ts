import { readFileSync } from 'node:fs';
import path from 'node:path';
import helmet from 'helmet';
import { z } from 'zod';

const contentSecurityPolicy = (inlineScripts: string[]) => ({
  directives: {
    defaultSrc: ["'self'"],
    // The build's own inline scripts by hash (the prerendered pages' boot script), nothing else.
    scriptSrc: ["'self'", ...inlineScripts],
    // React style attributes (progress bars, blur radius) and the prerendered pages' inlined
    // stylesheet need inline styles.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  },
});

const cspHashesSchema = z.object({
  scriptSrc: z.array(z.string().regex(/^'sha256-[A-Za-z0-9+/]+=*'$/)),
});

/** What `web/scripts/prerender.mjs` wrote to dist/csp-hashes.json; none without a build. */
function inlineScriptHashes(webDist: string): string[] {
  try {
    const file = readFileSync(path.join(webDist, 'csp-hashes.json'), 'utf8');
    return cspHashesSchema.parse(JSON.parse(file)).scriptSrc;
  } catch {
    return [];
  }
}

export interface SecurityHeaders {
  /** Pages, the SPA, its assets and the API reference: a strict CSP and helmet's defaults. */
  documents: Readonly<Record<string, string>>;
  /**
   * Every other `/api/` answer (JSON, preview images, a buyer's file): never rendered as a page,
   * so the set OWASP's REST Security Cheat Sheet names for APIs, with a CSP that forbids
   * everything in case one is opened as a page anyway. A page's headers on each JSON answer were
   * twelve headers and ≈700 bytes, the larger part of a storefront read's response (issue 11).
   */
  api: Readonly<Record<string, string>>;
}

/** Whether an answer to `url` gets the API set (see SecurityHeaders). */
export function isApiAnswer(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

/**
 * The security headers answers carry, worked out once at start-up: they do not depend on the
 * request, and building them per request cost the gateway measurable time under load (issue
 * 11's profile).
 */
export function securityHeaders(webDist: string): SecurityHeaders {
  const documents: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      documents[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete documents[name.toLowerCase()];
    },
  };
  const middleware = helmet({
    contentSecurityPolicy: contentSecurityPolicy(inlineScriptHashes(webDist)),
    crossOriginEmbedderPolicy: false,
    // Preview images are fetched by chat apps building link previews.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  middleware({} as never, response as never, () => undefined);
  const api = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-resource-policy': documents['cross-origin-resource-policy']!,
    'strict-transport-security': documents['strict-transport-security']!,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
  return { documents, api };
}
