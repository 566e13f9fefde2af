import { Navigate, matchRoutes, useRoutes, type RouteObject } from 'react-router-dom';
import { PublicLayout } from '@/components/layouts/public-layout';
import { paths } from '@/config/paths';
import { RequireAuth } from '@/features/auth/components/require-auth';
import { lazyPage, type LazyPage } from '@/lib/lazy-page';
import { storeDomain } from '@/lib/store-domain';

const Landing = lazyPage(() => import('./routes/landing'));
const Features = lazyPage(() => import('./routes/features'));
const Pricing = lazyPage(() => import('./routes/pricing'));
const BrandPricing = lazyPage(() => import('./routes/brand-pricing'));
const Founder = lazyPage(() => import('./routes/founder'));
const Contact = lazyPage(() => import('./routes/contact'));
const Terms = lazyPage(() => import('./routes/terms'));
const Privacy = lazyPage(() => import('./routes/privacy'));
const Refund = lazyPage(() => import('./routes/refund'));
const NotFound = lazyPage(() => import('./routes/not-found'));
const DashboardLayout = lazyPage(() => import('./routes/dashboard-layout'));
const DashboardHome = lazyPage(() => import('./routes/dashboard'));
const DashboardDeliveries = lazyPage(() => import('./routes/dashboard-deliveries'));
const DashboardPayments = lazyPage(() => import('./routes/dashboard-payments'));
const DashboardAnalytics = lazyPage(() => import('./routes/dashboard-analytics'));
const DashboardDiscounts = lazyPage(() => import('./routes/dashboard-discounts'));
const CreateProduct = lazyPage(() => import('./routes/create-product'));
const MyProducts = lazyPage(() => import('./routes/my-products'));
const EditProduct = lazyPage(() => import('./routes/edit-product'));
const Product = lazyPage(() => import('./routes/product'));
const Purchases = lazyPage(() => import('./routes/purchases'));
const PaymentSuccess = lazyPage(() => import('./routes/payment-success'));
const PaymentCancel = lazyPage(() => import('./routes/payment-cancel'));
const Receipt = lazyPage(() => import('./routes/receipt'));
const ClaimLink = lazyPage(() => import('./routes/claim-link'));
const Store = lazyPage(() => import('./routes/store'));
const Unsubscribe = lazyPage(() => import('./routes/unsubscribe'));
const Login = lazyPage(() => import('./routes/login'));
const Signup = lazyPage(() => import('./routes/signup'));
const ForgotPassword = lazyPage(() => import('./routes/forgot-password'));
const ResetPassword = lazyPage(() => import('./routes/reset-password'));
const EmailVerified = lazyPage(() => import('./routes/email-verified'));
const Settings = lazyPage(() => import('./routes/settings'));
const Onboarding = lazyPage(() => import('./routes/onboarding'));
const Invite = lazyPage(() => import('./routes/invite'));

interface RouteHandle {
  page: LazyPage<never>;
}

function page<P extends object>(path: string, Page: LazyPage<P>, props: P): RouteObject {
  return { path, element: <Page {...props} />, handle: { page: Page } satisfies RouteHandle };
}

export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      // On a store's custom domain `/` is the store's page (the gateway marks those pages).
      storeDomain() ? page(paths.home.path, Store, {}) : page(paths.home.path, Landing, {}),
      page(paths.brandHome.path, Landing, {}),
      page(paths.legacyHome.path, Landing, {}),
      page(paths.features.path, Features, {}),
      page(paths.pricing.path, Pricing, {}),
      page(paths.brandPricing.path, BrandPricing, {}),
      page(paths.founder.path, Founder, {}),
      page(paths.contact.path, Contact, {}),
      page(paths.terms.path, Terms, {}),
      page(paths.privacy.path, Privacy, {}),
      page(paths.refund.path, Refund, {}),

      page(paths.auth.login.path, Login, {}),
      page(paths.auth.signup.path, Signup, {}),
      page(paths.auth.brandLogin.path, Login, { brand: true }),
      page(paths.auth.brandSignup.path, Signup, { brand: true }),
      page(paths.auth.forgotPassword.path, ForgotPassword, {}),
      page(paths.auth.resetPassword.path, ResetPassword, {}),
      page(paths.auth.emailVerified.path, EmailVerified, {}),

      {
        // The seller shell (side menu, sign-in required) around every dashboard screen.
        element: <DashboardLayout />,
        handle: { page: DashboardLayout } satisfies RouteHandle,
        children: [
          page(paths.dashboard.root.path, DashboardHome, {}),
          page(paths.dashboard.brand.path, DashboardHome, {}),
          page(paths.dashboard.deliveries.path, DashboardDeliveries, {}),
          page(paths.dashboard.payments.path, DashboardPayments, {}),
          page(paths.dashboard.analytics.path, DashboardAnalytics, {}),
          page(paths.dashboard.discounts.path, DashboardDiscounts, {}),
          // One Settings: the side menu's entry is the account settings page itself.
          {
            path: paths.dashboard.settings.path,
            element: <Navigate to={paths.settings.getHref()} replace />,
          },
          page(paths.products.create.path, CreateProduct, {}),
          page(paths.products.mine.path, MyProducts, {}),
          page(paths.products.edit.path, EditProduct, {}),
        ],
      },

      {
        path: paths.products.createLegacy.path,
        element: <Navigate to={paths.products.create.getHref()} replace />,
      },
      page(paths.products.detail.path, Product, {}),
      page(paths.products.readable.path, Product, {}),
      page(paths.purchases.path, Purchases, {}),
      page(paths.payment.success.path, PaymentSuccess, {}),
      page(paths.payment.cancel.path, PaymentCancel, {}),
      page(paths.receipt.path, Receipt, {}),
      page(paths.claimLink.path, ClaimLink, {}),
      page(paths.store.path, Store, {}),
      page(paths.unsubscribe.path, Unsubscribe, {}),
      page(paths.invite.path, Invite, {}),
      {
        element: <RequireAuth />,
        children: [
          page(paths.onboarding.path, Onboarding, {}),
          page(paths.settings.path, Settings, {}),
        ],
      },

      page('*', NotFound, {}),
    ],
  },
];

export function AppRoutes() {
  return useRoutes(routes);
}

/** Loads the code of the page at `pathname`, so hydration can render it synchronously. */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map((match) => (match.route.handle as RouteHandle | undefined)?.page.preload()),
  );
}
