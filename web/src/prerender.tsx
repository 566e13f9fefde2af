/** Server entry used only at build time (scripts/prerender.mjs) to render the public pages. */
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppProvider } from './app/provider';
import { AppRoutes, preloadRoute } from './app/router';

export { prerenderedPages } from './config/seo';
export { site } from './config/site';

export async function renderPage(url: string): Promise<string> {
  // With the page's code loaded nothing suspends, so the HTML needs no inline script to reveal it
  // (the gateway's CSP allows no inline script).
  await preloadRoute(url);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProvider>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </AppProvider>
    </StrictMode>,
    { progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}
