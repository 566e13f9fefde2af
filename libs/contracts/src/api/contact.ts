import { z } from 'zod';

/** A message from the /contact form; the browser and identity validate with this one schema. */
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
