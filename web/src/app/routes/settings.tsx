import { Seo } from '@/components/seo/seo';
import { PlanBillingSection } from '@/features/billing';
import { BrandSection, DomainSection } from '@/features/brand';
import { PayoutDestinationCard } from '@/features/payouts';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { ActivitySection, TeamSection } from '@/features/teams';
import { WebhooksSection } from '@/features/webhooks';

export default function SettingsRoute() {
  return (
    <>
      <Seo
        title="Settings — Lockdrop"
        description="Your Lockdrop profile, security, payouts and plan."
      />
      <SettingsPage
        payoutDestination={<PayoutDestinationCard />}
        planBilling={<PlanBillingSection />}
        webhooks={<WebhooksSection />}
        brand={<BrandSection />}
        domain={<DomainSection />}
        team={<TeamSection />}
        activity={<ActivitySection />}
      />
    </>
  );
}
