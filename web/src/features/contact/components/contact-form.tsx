import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/input';
import { TextField } from '@/components/ui/text-field';
import {
  contactMessageSchema,
  useSendContactMessage,
  type ContactMessage,
} from '../api/send-message';

type FieldErrors = Partial<Record<keyof ContactMessage, string>>;

export function ContactForm() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formKey, setFormKey] = useState(0);
  const send = useSendContactMessage({ onSuccess: () => setFormKey((key) => key + 1) });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget));
    const parsed = contactMessageSchema.safeParse(data);
    if (!parsed.success) {
      const fieldErrors: FieldErrors = {};
      for (const issue of parsed.error.issues)
        fieldErrors[issue.path[0] as keyof ContactMessage] ??= issue.message;
      setErrors(fieldErrors);
      return;
    }
    setErrors({});
    send.mutate(parsed.data);
  }

  return (
    <form
      key={formKey}
      noValidate
      onSubmit={onSubmit}
      aria-label="Contact form"
      className="space-y-6"
    >
      <div className="grid gap-6 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          type="text"
          autoComplete="name"
          required
          error={errors.name}
        />
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          required
          error={errors.email}
        />
      </div>
      <Field label="Message" error={errors.message}>
        <Textarea name="message" rows={6} required />
      </Field>
      <Button type="submit" size="lg" disabled={send.isPending} className="w-full sm:w-auto">
        {send.isPending ? 'Sending...' : 'Send message'}
      </Button>
    </form>
  );
}
