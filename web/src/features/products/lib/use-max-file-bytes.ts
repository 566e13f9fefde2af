import { planById } from '@lockdrop/plans';
import { useSession } from '@/features/auth';

/** The largest file the signed-in seller's plan accepts (delivery enforces the same figure). */
export function useMaxFileBytes(): number {
  const { user } = useSession();
  return planById(user?.plan).maxFileBytes;
}
