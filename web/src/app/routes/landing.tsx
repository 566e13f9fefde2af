import { Seo } from '@/components/seo/seo';
import { choosePlanFor } from '@/features/billing';
import { pageMeta } from '@/config/seo';
import { ClosingCta } from '@/features/marketing/components/closing-cta';
import { DocsSection } from '@/features/marketing/components/docs-section';
import { FeaturesSection } from '@/features/marketing/components/features-section';
import { Hero } from '@/features/marketing/components/hero';
import { PricingSection } from '@/features/pricing/components/pricing-section';
import { SecuritySection } from '@/features/marketing/components/security-section';
import { StatusSection } from '@/features/marketing/components/status-section';
import { StepsSection } from '@/features/marketing/components/steps-section';

export default function LandingRoute() {
  return (
    <>
      <Seo {...pageMeta.landing} />
      <Hero />
      <StepsSection />
      <FeaturesSection />
      <SecuritySection />
      <PricingSection choosePlan={choosePlanFor} />
      <DocsSection />
      <StatusSection />
      <ClosingCta />
    </>
  );
}
