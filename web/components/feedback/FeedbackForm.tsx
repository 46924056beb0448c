import { useState } from 'react';
import { FEEDBACK_CATEGORY_LABELS, FeedbackSchema } from '../../../worker/features/feedback/contract';
import { api, ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { SelectField, TextArea, TextField } from '../ui/Field';
import { toast } from '../ui/Toast';

type Category = keyof typeof FEEDBACK_CATEGORY_LABELS;
const EMPTY = { category: '' as Category | '', title: '', description: '', senderEmail: '' };

/**
 * Feedback form (spec 01 §2, §4, §5). The e-mail field is shown only to signed-out visitors. Loaded on
 * demand by FeedbackDialog, so its zod contract stays out of the public pages' first load.
 */
export default function FeedbackForm({ open, onClose, signedIn }: { open: boolean; onClose: () => void; signedIn: boolean }) {
  const [form, setForm] = useState(EMPTY);
  const [sending, setSending] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const canSubmit = !!form.category && form.title.trim() !== '' && form.description.trim() !== '' && !sending;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const body = { ...form, senderEmail: signedIn ? undefined : form.senderEmail };
    const parsed = FeedbackSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setSending(true);
    try {
      await api('/api/feedback', { body: parsed.data });
      toast({ title: 'Feedback skickad framgångsrikt! Tack för din återkoppling.', variant: 'success' });
      setForm(EMPTY);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.issues) {
        setErrors(Object.fromEntries(err.issues.map((i) => [i.path.split('.')[0] ?? '', i.message])));
      }
      toast({ title: 'Kunde inte skicka feedback. Försök igen senare.', variant: 'destructive' });
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title="Skicka feedback" description="Berätta vad som fungerar, vad som krånglar eller vad du saknar.">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <SelectField
          label="Kategori"
          value={form.category}
          error={errors.category}
          onChange={(e) => setForm({ ...form, category: e.target.value as Category })}
        >
          <option value="">Välj kategori</option>
          {Object.entries(FEEDBACK_CATEGORY_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField label="Rubrik" value={form.title} error={errors.title} maxLength={120} onChange={(e) => setForm({ ...form, title: e.target.value })} />
        <TextArea label="Beskrivning" value={form.description} error={errors.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
        {!signedIn && (
          <TextField
            label="E-post (valfritt)"
            type="email"
            autoComplete="email"
            value={form.senderEmail}
            error={errors.senderEmail}
            hint="Om du vill att vi ska kunna svara dig."
            onChange={(e) => setForm({ ...form, senderEmail: e.target.value })}
          />
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Avbryt
          </Button>
          <Button type="submit" disabled={!canSubmit}>
            {sending ? 'Skickar...' : 'Skicka feedback'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
