import helmet from 'helmet';

const contentSecurityPolicy = {
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // React style attributes (progress bars, blur radius) need inline styles; scripts never.
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
};

/**
 * The security headers every answer carries (a strict CSP and helmet's defaults), worked out
 * once at start-up: they do not depend on the request, and building them per request cost
 * the gateway measurable time under load (issue 11's profile).
 */
export function securityHeaders(): Record<string, string> {
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
    contentSecurityPolicy,
    crossOriginEmbedderPolicy: false,
    // Preview images are fetched by chat apps building link previews.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  middleware({} as never, response as never, () => undefined);
  return headers;
}
