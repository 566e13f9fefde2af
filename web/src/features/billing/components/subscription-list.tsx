import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useSubscriptions } from '../api/billing';
import { recurringPrice, subscriptionSummary } from '../lib/format';
import { SubscriptionActions } from './subscription-actions';
import { SubscriptionStatus } from './subscription-status';

/** /purchases: the buyer's subscriptions, with where each stands and what they can do. */
export function SubscriptionList() {
  const subscriptions = useSubscriptions();
  if (!subscriptions.data?.length) return null;
  return (
    <section aria-labelledby="subscriptions-title" className="mb-10">
      <h2 id="subscriptions-title" className="text-xl font-semibold text-slate-900">
        Subscriptions ({subscriptions.data.length})
      </h2>
      <ul className="mt-4 space-y-4">
        {subscriptions.data.map((subscription) => (
          <li
            key={subscription.id}
            id={`subscription-${subscription.id}`}
            data-testid="subscription"
            className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
          >
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="font-semibold text-slate-900">
                  {subscription.productId ? (
                    <Link
                      to={paths.products.detail.getHref(subscription.productId)}
                      className="hover:text-indigo-700"
                    >
                      {subscription.title}
                    </Link>
                  ) : (
                    subscription.title
                  )}
                </p>
                <p className="text-sm text-slate-600">{recurringPrice(subscription)}</p>
              </div>
              <SubscriptionStatus subscription={subscription} />
            </div>
            <p className="mt-3 text-sm text-slate-700" data-testid="subscription-summary">
              {subscriptionSummary(subscription)}
            </p>
            <div className="mt-4">
              <SubscriptionActions subscription={subscription} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
