import { SectionHeading } from '@/components/ui/section';
import { features } from '../content';
import { ItemGrid } from './item-grid';

export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="features-title"
          eyebrow="Features"
          title="Everything you need to sell a file"
          description="Built for creators, freelancers, agencies and businesses who want to be paid before the work changes hands."
        />
        <div className="mt-14">
          <ItemGrid items={features} />
        </div>
      </div>
    </section>
  );
}
