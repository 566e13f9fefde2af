import { useParams } from 'react-router-dom';
import { Seo } from '@/components/seo/seo';
import { UnsubscribeScreen } from '@/features/buyer-updates/components/unsubscribe-screen';

const meta = {
  title: 'Unsubscribe — Lockdrop',
  description: 'Stop or restart e-mails about product updates from a seller.',
};

export default function UnsubscribeRoute() {
  const { token = '' } = useParams();
  return (
    <div className="bg-slate-50 px-4 py-14 sm:py-20">
      <Seo {...meta} />
      <div className="mx-auto max-w-lg rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
        <UnsubscribeScreen token={token} />
      </div>
    </div>
  );
}
