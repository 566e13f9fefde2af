import { useEffect } from 'react';
import type { PageMeta } from '@/config/seo';

/**
 * Keeps the document title and description in step with client-side navigation. The prerender
 * step writes the same values (plus Open Graph tags) into the static HTML head.
 */
export function Seo({ title, description }: PageMeta) {
  useEffect(() => {
    document.title = title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [title, description]);
  return null;
}
