import { useMutation } from '@tanstack/react-query';
import { contactMessageSchema, type ContactMessage } from '@lockdrop/contracts';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';

export { contactMessageSchema, type ContactMessage };

export function sendContactMessage(message: ContactMessage): Promise<unknown> {
  return api('/api/contact', { method: 'POST', body: message });
}

export function useSendContactMessage({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({
    mutationFn: sendContactMessage,
    onSuccess: () => {
      notify.success('Message sent', 'Thanks for getting in touch — we will reply by e-mail.');
      onSuccess?.();
    },
    onError: (error) => notify.error(error, 'Failed to send your message'),
  });
}
