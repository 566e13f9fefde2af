import type { Role } from '@/features/auth';

export const onboardingSteps = ['Your role', 'Payouts', 'First product'] as const;

export const roles: { role: Role; label: string; description: string }[] = [
  {
    role: 'freelancer',
    label: 'Freelancer',
    description: 'Deliver client work and get paid before the files change hands.',
  },
  {
    role: 'agency',
    label: 'Agency',
    description: 'Hand over projects for a team, with payment locked in first.',
  },
  {
    role: 'creator',
    label: 'Creator',
    description: 'Sell presets, templates, e-books, music or video to your audience.',
  },
  {
    role: 'business',
    label: 'Business',
    description: 'Sell reports, software or documents to customers.',
  },
];
