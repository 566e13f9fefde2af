import { Clock, Mail, MapPin } from 'lucide-react';
import { Seo } from '@/components/seo/seo';
import { PageHeader } from '@/components/ui/section';
import { policies } from '@/config/policies';
import { pageMeta } from '@/config/seo';
import { site } from '@/config/site';
import { ContactForm } from '@/features/contact/components/contact-form';

export default function ContactRoute() {
  return (
    <>
      <Seo {...pageMeta.contact} />
      <PageHeader
        eyebrow="Contact"
        title="Get in touch"
        description="Questions about selling, payouts or your plan? Send us a message and a person will answer."
      />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-[3fr_2fr] lg:px-8">
        <section
          aria-labelledby="contact-form-title"
          className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10"
        >
          <h2 id="contact-form-title" className="text-2xl font-bold tracking-tight text-slate-900">
            Send us a message
          </h2>
          <p className="mt-2 mb-8 text-slate-600">We reply by e-mail to the address you give.</p>
          <ContactForm />
        </section>
        <aside
          aria-labelledby="contact-details-title"
          className="space-y-8 rounded-3xl bg-slate-50 p-6 ring-1 ring-slate-200 sm:p-10"
        >
          <h2 id="contact-details-title" className="text-lg font-semibold text-slate-900">
            Other ways to reach us
          </h2>
          <div className="flex gap-4">
            <Mail className="mt-1 size-5 flex-none text-indigo-600" aria-hidden="true" />
            <div>
              <p className="font-medium text-slate-900">E-mail</p>
              <a
                href={`mailto:${site.contactEmail}`}
                className="rounded text-indigo-700 hover:text-indigo-600"
              >
                {site.contactEmail}
              </a>
            </div>
          </div>
          <div className="flex gap-4">
            <MapPin className="mt-1 size-5 flex-none text-indigo-600" aria-hidden="true" />
            <div>
              <p className="font-medium text-slate-900">Office</p>
              <p className="text-slate-600">{site.location}</p>
            </div>
          </div>
          <div className="flex gap-4">
            <Clock className="mt-1 size-5 flex-none text-indigo-600" aria-hidden="true" />
            <div>
              <p className="font-medium text-slate-900">Response times</p>
              <p className="text-slate-600">
                General questions: within {policies.supportReplyHours} hours.
              </p>
              <p className="text-slate-600">
                Billing questions: within {policies.billingReplyBusinessDays} business days.
              </p>
            </div>
          </div>
        </aside>
      </div>
    </>
  );
}
