/**
 * "Synka från kalender" on a place (issue 31.2): paste a public calendar address (Google Calendar,
 * Outlook, a website's feed), see what would become quizzes, accept; then the place shows each address's
 * last sync, its errors and changes skipped because of an order, with "Synka nu" and "Sluta synka".
 */
import { useState, type FormEvent } from 'react';
import {
  calendarSyncApi,
  useAddCalendarFeed,
  useCalendarFeeds,
  useRemoveCalendarFeed,
  useSyncCalendarFeed,
  type CalendarFeed,
  type CalendarPreview,
  type PreviewEvent,
} from '../../api/calendar-sync';
import { ApiError } from '../../lib/api';
import { CalendarUrlSchema } from '../../../worker/features/calendar-sync/contract';
import { QUIZ_LANGUAGE_BADGES } from '../../../worker/lib/quiz-filters';
import { shortDate } from '../../../worker/lib/swedish';
import { Button } from '../ui/Button';
import { TextField } from '../ui/Field';

const WEEKDAYS = ['måndagar', 'tisdagar', 'onsdagar', 'torsdagar', 'fredagar', 'lördagar', 'söndagar'];
const KIND: Record<PreviewEvent['kind'], string> = { single: 'En gång', weekly: 'Varje vecka', biweekly: 'Varannan vecka' };

const errorText = (err: unknown) => (err instanceof ApiError ? (err.issues?.[0]?.message ?? err.message) : 'Något gick fel. Försök igen.');

function stamp(iso: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Stockholm', dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

function when(e: PreviewEvent, year: number): string {
  const first = e.firstDate ? shortDate(e.firstDate, year) : null;
  if (e.kind === 'single') return `${first ?? ''} kl. ${e.startTime}`;
  const days = e.weekdays.map((d) => WEEKDAYS[d - 1]).join(' och ');
  return `${KIND[e.kind]}, ${days} kl. ${e.startTime}, från ${first ?? '–'}`;
}

/** The language the sync read (a LANGUAGE parameter), as the public badge says it; svenska, the default, in words too. */
const languageText = (l: CalendarPreview['events'][number]['languages'][number]) => QUIZ_LANGUAGE_BADGES[l] ?? 'På svenska';

function Preview({ preview }: { preview: CalendarPreview }) {
  const year = Number(preview.today.slice(0, 4));
  return (
    <div className="space-y-3" aria-live="polite">
      <h5 className="font-semibold">Det här blir quiz (de kommande {preview.horizonDays} dagarna)</h5>
      {preview.events.length === 0 ? (
        <p className="text-slate-700">Inga kommande händelser som kan bli quiz.</p>
      ) : (
        <ul className="space-y-1" aria-label="Händelser som blir quiz">
          {preview.events.map((e) => (
            <li key={e.uid} className="text-slate-800">
              <span className="font-semibold">{e.title ?? 'Utan namn'}</span> – {when(e, year)} ({e.occurrences} st)
              {e.languages.map((l) => (
                <span key={l} className="ml-2 rounded-full bg-sky-100 px-2 py-0.5 text-sm font-semibold text-sky-900">
                  {languageText(l)}
                </span>
              ))}
              {e.excludedDates.length > 0 && <span className="text-slate-600"> · inte {e.excludedDates.map((d) => shortDate(d, year)).join(', ')}</span>}
            </li>
          ))}
        </ul>
      )}
      {preview.truncated && <p className="text-amber-800">Kalendern är stor: bara de första händelserna tas med.</p>}
      {preview.notUnderstood.length > 0 && (
        <>
          <h5 className="font-semibold">Förstods inte (blir inga quiz)</h5>
          <ul className="space-y-1" aria-label="Händelser som inte förstods">
            {preview.notUnderstood.map((n, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one response's list, never reordered; a UID can be missing or repeat
              <li key={`${n.uid ?? ''}-${i}`} className="text-slate-700">
                {n.title ?? n.uid ?? 'Okänd händelse'}: {n.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function FeedRow({ locationId, feed }: { locationId: string; feed: CalendarFeed }) {
  const sync = useSyncCalendarFeed();
  const remove = useRemoveCalendarFeed();
  const r = feed.lastResult;
  return (
    <li className="space-y-1 rounded-xl border border-slate-200 p-3">
      <p className="break-all text-sm text-slate-800">{feed.url}</p>
      <p className="text-sm text-slate-700" data-testid="calendar-sync-status">
        {feed.lastSyncedAt ? `Senast synkad ${stamp(feed.lastSyncedAt)}` : 'Inte synkad än'}
        {r && feed.lastStatus !== 'failed' && ` · ${r.created} nya, ${r.updated} ändrade, ${r.cancelled} inställda`}
        {r && r.keptOwnerEdits > 0 && ` · ${r.keptOwnerEdits} som du har ändrat lämnades orörda`}
      </p>
      {feed.lastError && (
        <p role="alert" className="text-sm font-medium text-red-700">
          Senaste synken misslyckades: {feed.lastError}
        </p>
      )}
      {r && r.skipped.length > 0 && (
        <ul className="text-sm text-amber-800" aria-label="Ändringar som inte gjordes">
          {r.skipped.map((s, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one run's list, never reordered; date and title can repeat
            <li key={i}>
              {s.date} {s.title ?? ''}: {s.reason}
            </li>
          ))}
        </ul>
      )}
      {(sync.error || remove.error) && <p className="text-sm text-red-700">{errorText(sync.error ?? remove.error)}</p>}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={sync.isPending} onClick={() => sync.mutate({ locationId, feedId: feed.id })}>
          {sync.isPending ? 'Synkar…' : 'Synka nu'}
        </Button>
        <Button
          variant="ghost"
          className="text-red-700 hover:bg-red-50"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ locationId, feedId: feed.id })}
        >
          Sluta synka
        </Button>
      </div>
    </li>
  );
}

export function CalendarSyncPanel({ locationId, placeName }: { locationId: string; placeName: string }) {
  const feeds = useCalendarFeeds(locationId);
  const add = useAddCalendarFeed();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [preview, setPreview] = useState<{ url: string; data: CalendarPreview } | null>(null);
  const [loading, setLoading] = useState(false);

  async function onPreview(e: FormEvent) {
    e.preventDefault();
    const parsed = CalendarUrlSchema.safeParse({ url });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    setLoading(true);
    try {
      setPreview({ url: parsed.data.url, data: await calendarSyncApi.preview(locationId, parsed.data.url) });
    } catch (err) {
      setPreview(null);
      setError(errorText(err));
    } finally {
      setLoading(false);
    }
  }

  async function onAccept() {
    if (!preview) return;
    try {
      await add.mutateAsync({ locationId, url: preview.url });
      setPreview(null);
      setUrl('');
      setOpen(false);
    } catch (err) {
      setError(errorText(err));
    }
  }

  const list = feeds.data?.feeds ?? [];
  return (
    <section aria-label={`Kalendersynk för ${placeName}`} className="mt-4 space-y-3 border-t border-slate-100 pt-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="font-bold">Synka från kalender</h4>
        {!open && (
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Lägg till kalender<span className="sr-only"> för {placeName}</span>
          </Button>
        )}
      </div>
      {list.length > 0 && (
        <ul className="space-y-2" aria-label="Synkade kalendrar">
          {list.map((f) => (
            <FeedRow key={f.id} locationId={locationId} feed={f} />
          ))}
        </ul>
      )}
      {open && (
        <form onSubmit={onPreview} noValidate className="space-y-3">
          <TextField
            label="Kalenderadress (ICS)"
            hint="Den offentliga adressen till kalendern, t.ex. från Google Kalender eller Outlook. Quizen synkas varje natt."
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setPreview(null);
            }}
            error={error}
            inputMode="url"
            placeholder="https://"
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="secondary" disabled={loading}>
              {loading ? 'Hämtar…' : 'Förhandsgranska'}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                setOpen(false);
                setPreview(null);
                setError(undefined);
              }}
            >
              Avbryt
            </Button>
          </div>
          {preview && (
            <>
              <Preview preview={preview.data} />
              <Button onClick={onAccept} disabled={add.isPending || preview.data.events.length === 0}>
                {add.isPending ? 'Synkar…' : 'Synka kalendern'}
              </Button>
            </>
          )}
        </form>
      )}
    </section>
  );
}
