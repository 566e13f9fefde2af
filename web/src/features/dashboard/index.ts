/** The seller dashboard's public surface: route modules import from here. */
export { SellerShell } from './components/seller-shell';
export { DashboardHome } from './components/dashboard-home';
export { DeliveriesScreen } from './components/deliveries-screen';
export { PaymentsScreen } from './components/payments-screen';
export { AnalyticsScreen } from './components/analytics-screen';
