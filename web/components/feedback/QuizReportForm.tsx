/**
 * "Stämmer inte?" (issue 20 §4): what is wrong (nedlagt / fel dag eller tid / annat) and an optional text,
 * validated with the server's own contract. No name or e-mail is asked for.
 */
import { useState } from 'react';
import { QuizReportSchema, REPORT_REASON_LABELS, REPORT_REASONS, REPORT_TEXT_MAX } from '../../../worker/features/feedback/contract';
import { api, ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { TextArea } from '../ui/Field';
import { toast } from '../ui/Toast';

export default function QuizReportForm({ quizId, onDone }: { quizId: string; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = QuizReportSchema.safeParse({ quizId, reason, text: text || undefined });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Kontrollera fälten');
      return;
    }
    setError(null);
    setSending(true);
    try {
      await api('/api/feedback/report', { body: parsed.data });
      toast({ title: 'Tack! Vi tittar på det.', variant: 'success' });
      onDone();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Kunde inte skicka. Försök igen.');
    } finally {
      setSending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-3">
      <fieldset>
        <legend className="font-semibold">Vad stämmer inte?</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          {REPORT_REASONS.map((r) => (
            <label key={r} className="flex items-center gap-1.5">
              <input type="radio" name="report-reason" value={r} checked={reason === r} onChange={() => setReason(r)} />
              {REPORT_REASON_LABELS[r]}
            </label>
          ))}
        </div>
      </fieldset>
      <TextArea label="Berätta gärna mer (valfritt)" rows={2} maxLength={REPORT_TEXT_MAX} value={text} onChange={(e) => setText(e.target.value)} />
      {error && (
        <p role="alert" className="font-medium text-red-700">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onDone}>
          Avbryt
        </Button>
        <Button type="submit" disabled={sending}>
          {sending ? 'Skickar…' : 'Skicka rapport'}
        </Button>
      </div>
    </form>
  );
}
