import { useState } from 'react';
import { Seo } from '@/components/seo/seo';
import { choosePlanFor } from '@/features/billing';
import { PageHeader } from '@/components/ui/section';
import { pageMeta } from '@/config/seo';
import { ClosingCta } from '@/features/marketing/components/closing-cta';
import { BillingToggle } from '@/features/pricing/components/billing-toggle';
import { PlanComparison } from '@/features/pricing/components/plan-comparison';
import { PlanGrid } from '@/features/pricing/components/plan-grid';
import { ProcessorFeeNote } from '@/features/pricing/components/processor-fee-note';
import type { Billing } from '@/features/pricing/lib/plan-display';

export default function PricingRoute() {
  const [billing, setBilling] = useState<Billing>('monthly');
  return (
    <>
      <Seo {...pageMeta.pricing} />
      <PageHeader
        eyebrow="Pricing"
        title="Simple pricing that grows with you"
        description="Start free with no monthly fee. Move up for lower fees, bigger files and team features."
      >
        <div className="mt-10">
          <BillingToggle billing={billing} onChange={setBilling} />
        </div>
      </PageHeader>
      <section aria-labelledby="plans-title" className="bg-white py-16">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 id="plans-title" className="sr-only">
            Plans
          </h2>
          <PlanGrid billing={billing} choosePlan={choosePlanFor} />
          <ProcessorFeeNote />
        </div>
      </section>
      <section aria-labelledby="compare-title" className="bg-slate-50 py-16">
        <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
          <h2
            id="compare-title"
            className="mb-8 text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
          >
            Compare every plan
          </h2>
          <PlanComparison />
        </div>
      </section>
      <ClosingCta />
    </>
  );
}
