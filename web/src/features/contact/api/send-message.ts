import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api';
import { notify } from '@/lib/toast';

export const contactMessageSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Please enter your name')
    .max(100, 'Please keep your name under 100 characters'),
  email: z.email('Please enter a valid e-mail address'),
  message: z
    .string()
    .trim()
    .min(10, 'Please write at least 10 characters')
    .max(5000, 'Please keep your message under 5000 characters'),
});

export type ContactMessage = z.infer<typeof contactMessageSchema>;

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
