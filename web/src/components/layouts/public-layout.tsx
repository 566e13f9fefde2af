import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useCurrentPageBrand, brandAccentStyle } from '@/lib/page-brand';
import { BrandedHeader, SoldWithLockdrop } from './branded-frame';
import { Footer } from './footer';
import { Header } from './header';

/** New pages start at the top; links with a hash (footer anchors) scroll to their section. */
function ScrollManager() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    // The section may belong to a page whose code is still loading: look again on later frames.
    let frame = 0;
    let attempts = 120;
    const scrollToSection = () => {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) target.scrollIntoView();
      else if (attempts-- > 0) frame = requestAnimationFrame(scrollToSection);
    };
    scrollToSection();
    return () => cancelAnimationFrame(frame);
  }, [pathname, hash]);
  return null;
}

/**
 * A screen tall: while a page's code or data loads, the footer stays below the fold instead of
 * showing and then jumping away (Lighthouse measured CLS 0.165 on a product page).
 */
function PageFallback() {
  return <div className="min-h-svh" aria-busy="true" />;
}

export function PublicLayout() {
  // A seller's page with a brand (Pro and up) shows the seller's header and only a small
  // "Sold with Lockdrop" line; every other page keeps Lockdrop's header and footer.
  const brand = useCurrentPageBrand();
  return (
    <div
      className="flex min-h-screen flex-col"
      style={brandAccentStyle(brand)}
      data-branded={brand ? 'true' : undefined}
    >
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <ScrollManager />
      {brand ? <BrandedHeader brand={brand} /> : <Header />}
      <main id="main" className="flex-1">
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </main>
      {brand ? <SoldWithLockdrop /> : <Footer />}
    </div>
  );
}
