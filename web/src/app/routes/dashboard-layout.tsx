import { RequireAuth } from '@/features/auth';
import { SellerShell } from '@/features/dashboard';

/** The seller shell around every /dashboard screen; signed-out visitors go to /login and back. */
export default function DashboardLayoutRoute() {
  return (
    <RequireAuth>
      <SellerShell />
    </RequireAuth>
  );
}
