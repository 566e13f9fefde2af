import { Mail, MapPin } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Logo } from '@/components/ui/logo';
import { SocialIcon } from '@/components/ui/social-icon';
import { paths } from '@/config/paths';
import { site } from '@/config/site';

const columns = [
  {
    title: 'Product',
    links: [
      { label: 'Features', to: paths.sections.features.getHref() },
      { label: 'Security', to: paths.sections.security.getHref() },
      { label: 'Pricing', to: paths.pricing.getHref() },
      { label: 'Earnings calculator', to: paths.brandPricing.getHref() },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'Docs', to: paths.sections.docs.getHref() },
      { label: 'Status', to: paths.sections.status.getHref() },
      { label: 'Founder Story', to: paths.founder.getHref() },
      { label: 'Contact', to: paths.contact.getHref() },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Terms of Service', to: paths.terms.getHref() },
      { label: 'Privacy Policy', to: paths.privacy.getHref() },
      { label: 'Refund Policy', to: paths.refund.getHref() },
    ],
  },
];

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 py-14 sm:px-6 lg:grid-cols-5 lg:px-8">
        <div className="lg:col-span-2">
          <Logo />
          <p className="mt-4 max-w-sm text-sm leading-6 text-slate-600">{site.tagline}</p>
          <ul className="mt-6 space-y-3 text-sm text-slate-600">
            <li className="flex items-center gap-2">
              <MapPin className="size-4 text-slate-500" aria-hidden="true" />
              {site.location}
            </li>
            <li>
              <a
                href={`mailto:${site.contactEmail}`}
                className="inline-flex items-center gap-2 rounded hover:text-indigo-700"
              >
                <Mail className="size-4 text-slate-500" aria-hidden="true" />
                {site.contactEmail}
              </a>
            </li>
          </ul>
          <ul className="mt-6 flex gap-3" aria-label="Social media">
            {site.social.map(({ platform, href }) => (
              <li key={platform}>
                <a
                  href={href}
                  rel="noopener noreferrer"
                  target="_blank"
                  className="inline-flex size-9 items-center justify-center rounded-full bg-white text-slate-600 ring-1 ring-slate-200 hover:text-indigo-700 hover:ring-indigo-200"
                >
                  <SocialIcon platform={platform} />
                  <span className="sr-only">
                    {site.name} on {platform}
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-semibold text-slate-900">{column.title}</h2>
            <ul className="mt-4 space-y-3">
              {column.links.map((link) => (
                <li key={link.label}>
                  <Link
                    to={link.to}
                    className="rounded text-sm text-slate-600 hover:text-indigo-700"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-200">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-500 sm:px-6 lg:px-8">
          © {year} {site.name}. Made in {site.location}.
        </p>
      </div>
    </footer>
  );
}
