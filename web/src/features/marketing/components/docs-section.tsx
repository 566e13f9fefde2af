import { formatBps, formatFileSize, planById } from '@lockdrop/plans';
import { SectionHeading } from '@/components/ui/section';
import { policies } from '@/config/policies';
import { useProcessorFeeBps } from '@/lib/payment-mode';

const free = planById('free');

/** The answers, with the processing fee this deployment's checkout counts. */
const answersWith = (processorFeeBps: number) => [
  {
    question: 'What can I sell?',
    answer: `Any digital file: PDFs, ZIP archives, video, audio, documents and images. On the Free plan a file can be up to ${formatFileSize(free.maxFileBytes)}; paid plans allow bigger files.`,
  },
  {
    question: 'How do buyers pay?',
    answer:
      'Through our payment provider’s secure checkout by card, bank transfer or mobile money. Buyers only need an e-mail address — no account required.',
  },
  {
    question: 'When does the buyer get the file?',
    answer: `As soon as the provider confirms the payment. The buyer downloads from the payment page or from the link in their receipt e-mail; each download link is valid for ${policies.downloadLinkValidityHours} hour and can be renewed.`,
  },
  {
    question: 'What does it cost?',
    answer: `The Free plan has no monthly fee: we take a ${formatBps(free.platformFeeBps)} platform fee per sale, and the payment provider charges ${formatBps(processorFeeBps)} for processing. Paid plans lower the platform fee.`,
  },
  {
    question: 'When am I paid?',
    answer: `Earnings are paid out automatically to your payout account, usually within ${policies.payoutBusinessDays.min}-${policies.payoutBusinessDays.max} business days.`,
  },
  {
    question: 'What do buyers see before they pay?',
    answer:
      'Your title, description and price, plus a blurred preview if you turn it on. You choose how strong the blur is, from level 1 to 10.',
  },
];

export function DocsSection() {
  const answers = answersWith(useProcessorFeeBps());
  return (
    <section id="docs" aria-labelledby="docs-title" className="bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="docs-title"
          eyebrow="Docs"
          title="Good to know before you start"
          description="Short answers to the questions creators ask most."
        />
        <dl className="mx-auto mt-14 grid max-w-5xl gap-x-12 gap-y-10 md:grid-cols-2">
          {answers.map(({ question, answer }) => (
            <div key={question}>
              <dt className="text-base font-semibold text-slate-900">{question}</dt>
              <dd className="mt-2 text-sm leading-6 text-slate-600">{answer}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
