import { productPath } from '@lockdrop/contracts';
/** Every route of the app (spec §2; {brand} = lockdrop). Components link through these. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  brandHome: { path: '/lockdrop', getHref: () => '/lockdrop' },
  legacyHome: { path: '/home', getHref: () => '/home' },
  features: { path: '/features', getHref: () => '/features' },
  pricing: { path: '/pricing', getHref: () => '/pricing' },
  brandPricing: { path: '/lockdrop/pricing', getHref: () => '/lockdrop/pricing' },
  founder: { path: '/founder', getHref: () => '/founder' },
  contact: { path: '/contact', getHref: () => '/contact' },
  terms: { path: '/terms', getHref: () => '/terms' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  refund: { path: '/refund', getHref: () => '/refund' },

  auth: {
    login: {
      path: '/login',
      getHref: (redirectTo?: string) =>
        redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : '/login',
    },
    signup: { path: '/signup', getHref: () => '/signup' },
    brandLogin: { path: '/lockdrop/login', getHref: () => '/lockdrop/login' },
    brandSignup: { path: '/lockdrop/signup', getHref: () => '/lockdrop/signup' },
    forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
    resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
    emailVerified: { path: '/email-verified', getHref: () => '/email-verified' },
  },

  dashboard: {
    root: { path: '/dashboard', getHref: () => '/dashboard' },
    deliveries: { path: '/dashboard/deliveries', getHref: () => '/dashboard/deliveries' },
    payments: { path: '/dashboard/payments', getHref: () => '/dashboard/payments' },
    analytics: { path: '/dashboard/analytics', getHref: () => '/dashboard/analytics' },
    discounts: { path: '/dashboard/discounts', getHref: () => '/dashboard/discounts' },
    settings: { path: '/dashboard/settings', getHref: () => '/dashboard/settings' },
    brand: { path: '/lockdrop/dashboard', getHref: () => '/lockdrop/dashboard' },
  },

  products: {
    create: { path: '/create-product', getHref: () => '/create-product' },
    /** Old link target: redirects to create. */
    createLegacy: { path: '/products/new', getHref: () => '/products/new' },
    mine: { path: '/my-products', getHref: () => '/my-products' },
    detail: { path: '/product/:id', getHref: (id: string) => `/product/${encodeURIComponent(id)}` },
    /** The readable address a seller shares: `/p/<slug>-<shortId>` (libs/contracts). */
    readable: {
      path: '/p/:slugId',
      getHref: (product: { id: string; title: string }) => productPath(product),
    },
    edit: {
      path: '/my-products/:id/edit',
      getHref: (id: string) => `/my-products/${encodeURIComponent(id)}/edit`,
    },
  },

  purchases: { path: '/purchases', getHref: () => '/purchases' },
  payment: {
    success: { path: '/payment/success', getHref: () => '/payment/success' },
    cancel: { path: '/payment/cancel', getHref: () => '/payment/cancel' },
  },
  /** The receipt e-mail's download link (no account needed). */
  receipt: { path: '/receipt/:token', getHref: (token: string) => `/receipt/${token}` },
  /** Where a free claim's confirmation link lands when it cannot show the receipt (issue 30). */
  claimLink: { path: '/claim-link', getHref: () => '/claim-link' },
  /** A seller's public store page (their published products, branded). */
  store: { path: '/s/:handle', getHref: (handle: string) => `/s/${encodeURIComponent(handle)}` },
  /** The unsubscribe link of a seller's product-update e-mail (no account needed). */
  unsubscribe: {
    path: '/unsubscribe/:token',
    getHref: (token: string) => `/unsubscribe/${encodeURIComponent(token)}`,
  },
  onboarding: { path: '/onboarding', getHref: () => '/onboarding' },
  settings: { path: '/settings', getHref: () => '/settings' },
  /** The team invitation e-mail's link (issue 28). */
  invite: { path: '/invite', getHref: () => '/invite' },

  /** Landing-page sections the footer links to. */
  sections: {
    features: { getHref: () => '/#features' },
    security: { getHref: () => '/#security' },
    docs: { getHref: () => '/#docs' },
    status: { getHref: () => '/#status' },
  },
} as const;
