import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useActing, useSession } from '@/features/auth';
import { notify } from '@/lib/toast';
import { useMyStores, useSwitchStore } from '../api/teams';

/** The seller shell's store switcher: shown only to someone who belongs to another store. */
export function StoreSwitcher() {
  const { user } = useSession();
  const acting = useActing();
  const stores = useMyStores(user !== null);
  const switchStore = useSwitchStore();
  const navigate = useNavigate();
  if (!user || !stores.data || stores.data.length < 2) return null;
  const current = acting?.storeId ?? user.id;
  return (
    <label className="block px-3 text-xs font-medium text-slate-500">
      Store
      <select
        aria-label="Switch store"
        value={current}
        disabled={switchStore.isPending}
        onChange={(event) =>
          switchStore.mutate(event.target.value, {
            onSuccess: () => navigate(paths.dashboard.root.getHref()),
            onError: (error) => notify.error(error, 'Could not switch store'),
          })
        }
        className="mt-1 block w-full rounded-md px-2 py-1.5 text-sm text-slate-900 ring-1 ring-slate-300"
      >
        {stores.data.map((store) => (
          <option key={store.storeId} value={store.storeId}>
            {store.own ? `${store.storeName} (mine)` : `${store.storeName} · ${store.role}`}
          </option>
        ))}
      </select>
    </label>
  );
}
