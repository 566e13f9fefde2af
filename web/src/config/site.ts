/** Public identity of the product shown in the shell and used in page meta. */
export const site = {
  name: 'Lockdrop',
  tagline: 'Sell any file behind a secure payment link — and get paid automatically.',
  location: 'Lagos, Nigeria',
  countries: '30+',
  contactEmail: 'hello@lockdrop.app',
  social: [
    { platform: 'X', href: 'https://x.com/lockdropapp' },
    { platform: 'Instagram', href: 'https://www.instagram.com/lockdropapp' },
    { platform: 'LinkedIn', href: 'https://www.linkedin.com/company/lockdropapp' },
  ],
} as const;

export type SocialPlatform = (typeof site.social)[number]['platform'];
