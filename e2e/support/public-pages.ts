/** The public pages of issue 6 with the h1 each must show and the file the build prerenders. */
export const publicPages = [
  { path: '/', file: 'index', heading: 'Sell any file behind a secure payment link' },
  { path: '/lockdrop', file: 'lockdrop', heading: 'Sell any file behind a secure payment link' },
  { path: '/home', file: 'home', heading: 'Sell any file behind a secure payment link' },
  { path: '/features', file: 'features', heading: 'Everything between your file and your payout' },
  { path: '/pricing', file: 'pricing', heading: 'Simple pricing that grows with you' },
  {
    path: '/lockdrop/pricing',
    file: 'lockdrop/pricing',
    heading: 'Know what you keep from every sale',
  },
  { path: '/founder', file: 'founder', heading: 'Why we built Lockdrop' },
  { path: '/contact', file: 'contact', heading: 'Get in touch' },
  { path: '/terms', file: 'terms', heading: 'Terms of Service' },
  { path: '/privacy', file: 'privacy', heading: 'Privacy Policy' },
  { path: '/refund', file: 'refund', heading: 'Refund Policy' },
] as const;

export const landingHeading = publicPages[0].heading;
