import { paths } from './paths';

export interface PageMeta {
  title: string;
  description: string;
}

const landing: PageMeta = {
  title: 'Lockdrop — Sell files behind a secure payment link',
  description:
    'Upload a file, set your price and share one secure link. Buyers pay by card, bank or mobile money, the file unlocks and you get paid automatically.',
};

export const pageMeta = {
  landing,
  features: {
    title: 'Features — Lockdrop',
    description:
      'Sell PDFs, ZIPs, video, audio, documents and images with blurred previews, one-time or recurring pricing, webhook-confirmed unlocks, analytics and automatic payouts.',
  },
  pricing: {
    title: 'Pricing — Lockdrop',
    description:
      'Start free with no monthly fee. Compare the Free, Starter, Pro and Business plans, monthly or yearly.',
  },
  brandPricing: {
    title: 'Pricing and earnings calculator — Lockdrop',
    description:
      'See exactly what you keep from every sale on each Lockdrop plan, after platform and payment processing fees.',
  },
  founder: {
    title: 'Founder Story — Lockdrop',
    description:
      'Why Lockdrop was built in Lagos: getting creators paid for their work before the file changes hands.',
  },
  contact: {
    title: 'Contact — Lockdrop',
    description:
      'Questions about selling, payouts or billing? Send the Lockdrop team a message from Lagos, Nigeria.',
  },
  terms: {
    title: 'Terms of Service — Lockdrop',
    description:
      'The terms for selling and buying files on Lockdrop: fees, payouts, refunds, liability and records.',
  },
  privacy: {
    title: 'Privacy Policy — Lockdrop',
    description: 'What Lockdrop collects, why, how long it is kept and the choices you have.',
  },
  refund: {
    title: 'Refund Policy — Lockdrop',
    description:
      'How refunds work on Lockdrop for buyers of files and for subscribers to paid plans.',
  },
  notFound: { title: 'Page not found — Lockdrop', description: landing.description },
} satisfies Record<string, PageMeta>;

/** Public pages written to dist/prerendered/<file>.html at build time. */
export const prerenderedPages: { path: string; file: string; meta: PageMeta }[] = [
  { path: paths.home.path, file: 'index', meta: pageMeta.landing },
  { path: paths.brandHome.path, file: 'lockdrop', meta: pageMeta.landing },
  { path: paths.legacyHome.path, file: 'home', meta: pageMeta.landing },
  { path: paths.features.path, file: 'features', meta: pageMeta.features },
  { path: paths.pricing.path, file: 'pricing', meta: pageMeta.pricing },
  { path: paths.brandPricing.path, file: 'lockdrop/pricing', meta: pageMeta.brandPricing },
  { path: paths.founder.path, file: 'founder', meta: pageMeta.founder },
  { path: paths.contact.path, file: 'contact', meta: pageMeta.contact },
  { path: paths.terms.path, file: 'terms', meta: pageMeta.terms },
  { path: paths.privacy.path, file: 'privacy', meta: pageMeta.privacy },
  { path: paths.refund.path, file: 'refund', meta: pageMeta.refund },
];
