import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ToasterHost } from '@/components/ui/toaster-host';
import { SessionRefresher } from '@/features/auth/components/session-refresher';
import { createQueryClient } from '@/lib/query-client';

export function AppProvider({
  children,
  queryClient: given,
}: {
  children: ReactNode;
  /** A client seeded with what the page was rendered with; otherwise an empty one. */
  queryClient?: QueryClient;
}) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <SessionRefresher />
      <ToasterHost />
    </QueryClientProvider>
  );
}
