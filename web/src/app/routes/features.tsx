import { Seo } from '@/components/seo/seo';
import { ButtonLink } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/section';
import { paths } from '@/config/paths';
import { pageMeta } from '@/config/seo';
import { GetStartedLink } from '@/features/auth/components/get-started-link';
import { ClosingCta } from '@/features/marketing/components/closing-cta';
import { FeaturesSection } from '@/features/marketing/components/features-section';
import { SecuritySection } from '@/features/marketing/components/security-section';
import { StepsSection } from '@/features/marketing/components/steps-section';

export default function FeaturesRoute() {
  return (
    <>
      <Seo {...pageMeta.features} />
      <PageHeader
        eyebrow="Features"
        title="Everything between your file and your payout"
        description="Upload once, share a link, and let Lockdrop handle checkout, unlocking, delivery and payouts."
      >
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <GetStartedLink size="lg">Get Started for Free</GetStartedLink>
          <ButtonLink to={paths.pricing.getHref()} variant="secondary" size="lg">
            View pricing
          </ButtonLink>
        </div>
      </PageHeader>
      <StepsSection />
      <FeaturesSection />
      <SecuritySection />
      <ClosingCta />
    </>
  );
}
