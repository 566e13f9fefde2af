import { RequireAuth } from '@/features/auth';
import { SellerShell } from '@/features/dashboard';
import { ReadOnlyNote, StoreSwitcher } from '@/features/teams';

/** The seller shell around every /dashboard screen; signed-out visitors go to /login and back. */
export default function DashboardLayoutRoute() {
  return (
    <RequireAuth>
      <SellerShell
        storeSwitcher={
          <>
            <StoreSwitcher />
            <ReadOnlyNote />
          </>
        }
      />
    </RequireAuth>
  );
}
