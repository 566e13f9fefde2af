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

/**
 * The security headers every answer carries (a strict CSP and helmet's defaults), worked out
 * once at start-up: they do not depend on the request, and building them per request cost
 * the gateway measurable time under load (issue 11's profile).
 */
export function securityHeaders(webDist: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  const middleware = helmet({
    contentSecurityPolicy: contentSecurityPolicy(inlineScriptHashes(webDist)),
    crossOriginEmbedderPolicy: false,
    // Preview images are fetched by chat apps building link previews.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  middleware({} as never, response as never, () => undefined);
  return headers;
}
