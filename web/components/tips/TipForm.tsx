import { useEffect, useRef, useState } from 'react';
import { TIP_MESSAGE_MAX, TipSchema, type TipInput } from '../../../worker/features/tips/contract';
import { WEEKDAYS } from '../../../worker/lib/swedish';
import { LOCAL_PASS_TOKEN } from '../../../worker/ports/human-check';
import { tipsApi } from '../../api/tips';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { DateTimeField, SelectField, TextArea, TextField } from '../ui/Field';
import { TownField } from '../ui/TownField';

const EMPTY = { venueName: '', address: '', city: '', when: '', date: '', startTime: '19:00', link: '', message: '', email: '', company: '' };
type Form = typeof EMPTY;

declare global {
  interface Window {
    turnstile?: {
      render(el: HTMLElement, opts: { sitekey: string; callback(token: string): void; 'expired-callback'(): void; language?: string }): string;
      reset(id?: string): void;
    };
  }
}

/** Cloudflare Turnstile's widget, loaded only when a site key is configured (plain script tag, explicit render). */
function useTurnstile(siteKey: string | null, onToken: (t: string) => void) {
  const ref = useRef<HTMLDivElement>(null);
  const widget = useRef<string | null>(null);
  useEffect(() => {
    if (!siteKey || !ref.current) return;
    const el = ref.current;
    const render = () => {
      if (window.turnstile && !widget.current)
        widget.current = window.turnstile.render(el, { sitekey: siteKey, language: 'sv', callback: onToken, 'expired-callback': () => onToken('') });
    };
    if (window.turnstile) return render();
    const s = document.createElement('script');
    s.src = 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
    s.async = true;
    s.onload = render;
    document.head.appendChild(s);
  }, [siteKey, onToken]);
  return { ref, reset: () => window.turnstile?.reset(widget.current ?? undefined) };
}

/** "Tipsa om ett quiz" (issue 31.1): validated with the same TipSchema as the Worker. */
export function TipForm() {
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [siteKey, setSiteKey] = useState<string | null | undefined>(undefined);
  const [token, setToken] = useState('');
  const turnstile = useTurnstile(siteKey ?? null, setToken);

  useEffect(() => {
    tipsApi.config().then(
      (c) => setSiteKey(c.siteKey),
      () => setSiteKey(null),
    );
  }, []);

  const set = (k: keyof Form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const body: TipInput = {
      venueName: form.venueName,
      address: form.address,
      city: form.city,
      weekday: form.when && form.when !== 'datum' ? Number(form.when) : null,
      date: form.when === 'datum' ? form.date : null,
      startTime: form.startTime,
      link: form.link,
      message: form.message,
      email: form.email,
      company: form.company,
      humanToken: siteKey ? token : LOCAL_PASS_TOKEN,
    };
    const parsed = TipSchema.safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setFailure(null);
    setSending(true);
    try {
      await tipsApi.submit(body);
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.issues) setErrors(Object.fromEntries(err.issues.map((i) => [i.path.split('.')[0] ?? '', i.message])));
      setFailure(err instanceof ApiError ? err.message : 'Kunde inte skicka tipset. Försök igen senare.');
      turnstile.reset();
      setToken('');
    } finally {
      setSending(false);
    }
  }

  if (done) {
    return (
      <div role="status" className="space-y-3 rounded-2xl border border-emerald-300 bg-emerald-50 p-6">
        <p className="text-lg font-bold">Tack för tipset!</p>
        <p>Vi kollar uppgifterna och lägger upp quizet så snart vi kan.{form.email ? ' Du får ett mejl när det är publicerat.' : ''}</p>
        <Button
          variant="secondary"
          onClick={() => {
            setForm(EMPTY);
            setDone(false);
            setToken('');
          }}
        >
          Tipsa om ett till
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Tipsa om ett quiz">
      <TextField label="Ställe" value={form.venueName} error={errors.venueName} maxLength={120} autoComplete="organization" onChange={set('venueName')} />
      <TextField label="Adress" value={form.address} error={errors.address} maxLength={200} autoComplete="street-address" onChange={set('address')} />
      <TownField value={form.city} error={errors.city} maxLength={80} onChange={set('city')} />
      <SelectField label="Veckodag" value={form.when} error={errors.weekday} onChange={set('when')}>
        <option value="">Välj veckodag</option>
        {WEEKDAYS.map((w) => (
          <option key={w.iso} value={String(w.iso)}>
            Varje {w.name}
          </option>
        ))}
        <option value="datum">Ett visst datum</option>
      </SelectField>
      {/* The owner forms' date and time fields (issue 44.9): the native picker may say 07:00 PM; the words beside it are Swedish. */}
      {form.when === 'datum' && <DateTimeField label="Datum" type="date" value={form.date} error={errors.date} onChange={set('date')} />}
      <DateTimeField label="Starttid" type="time" value={form.startTime} error={errors.startTime} onChange={set('startTime')} />
      <TextField
        label="Länk (valfritt)"
        type="url"
        value={form.link}
        error={errors.link}
        hint="Till exempel ställets webbplats eller evenemang."
        onChange={set('link')}
      />
      <TextArea label="Fritext (valfritt)" value={form.message} error={errors.message} maxLength={TIP_MESSAGE_MAX} onChange={set('message')} />
      <TextField
        label="E-post (valfritt)"
        type="email"
        autoComplete="email"
        value={form.email}
        error={errors.email}
        hint="Då mejlar vi dig en gång när quizet är publicerat. Sedan raderar vi adressen."
        onChange={set('email')}
      />
      {/* Honeypot: hidden from people and from assistive technology; bots fill it in. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label>
          Företag
          <input tabIndex={-1} autoComplete="off" name="company" value={form.company} onChange={set('company')} />
        </label>
      </div>
      {siteKey && <div ref={turnstile.ref} />}
      {errors.humanToken && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {errors.humanToken}
        </p>
      )}
      {failure && !errors.humanToken && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {failure}
        </p>
      )}
      <Button type="submit" disabled={sending || siteKey === undefined || (!!siteKey && !token)}>
        {sending ? 'Skickar...' : 'Skicka tipset'}
      </Button>
    </form>
  );
}
