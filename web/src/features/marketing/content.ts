import {
  BarChart3,
  Banknote,
  Eye,
  FileStack,
  Link2,
  Repeat,
  ShieldCheck,
  Upload,
  Wallet,
  type LucideIcon,
} from 'lucide-react';

export interface Item {
  icon: LucideIcon;
  title: string;
  description: string;
}

/** The three-step flow of spec §1. */
export const steps: Item[] = [
  {
    icon: Upload,
    title: 'Upload and set your price',
    description:
      'Add your file, a title and a description, choose a currency and decide whether buyers see a blurred preview.',
  },
  {
    icon: Link2,
    title: 'Share your secure link',
    description:
      'Every product gets its own payment link. Post it on social media, send it to a client or add it to your bio.',
  },
  {
    icon: Wallet,
    title: 'Get paid automatically',
    description:
      'Buyers pay by card, bank transfer or mobile money. The file unlocks for them and your earnings go to your payout account.',
  },
];

/** The six advertised features of spec §1. */
export const features: Item[] = [
  {
    icon: FileStack,
    title: 'Multiple file types',
    description:
      'Sell PDFs, ZIP archives, video, audio, documents and images — one upload, one link.',
  },
  {
    icon: Eye,
    title: 'Adjustable preview blur',
    description:
      'Let buyers see what they are getting. Set the blur from level 1 to 10; the original never reaches their browser until they pay.',
  },
  {
    icon: Repeat,
    title: 'One-time or recurring pricing',
    description:
      'Charge once for a download, or sell a subscription for work you deliver every month.',
  },
  {
    icon: ShieldCheck,
    title: 'Locked until payment is confirmed',
    description:
      'Files unlock only after the payment provider confirms the payment to us directly, not when a browser says so.',
  },
  {
    icon: BarChart3,
    title: 'Analytics that matter',
    description: 'Follow views, downloads, revenue and unlock rate for every product you sell.',
  },
  {
    icon: Banknote,
    title: 'Automatic payouts',
    description:
      'Earnings are paid out to your bank or payout account automatically — no invoices, no chasing.',
  },
];
