import { Seo } from '@/components/seo/seo';
import { AcceptInviteScreen } from '@/features/teams';

export default function InviteRoute() {
  return (
    <>
      <Seo
        title="Join a store — Lockdrop"
        description="Accept an invitation to a Lockdrop store."
      />
      <AcceptInviteScreen />
    </>
  );
}
