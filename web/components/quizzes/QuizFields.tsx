/**
 * The quiz form's fields (spec 02 §2.4, §5), shared by create quiz, edit quiz and edit series. Values
 * are strings as the inputs hold them; toFields() turns them into the shared contract's shape.
 */
import {
  CATEGORY_LABELS,
  PATTERN_LABELS,
  QUIZ_CATEGORIES,
  QUIZ_THEMES,
  TEAM_SIZES,
  WEEKDAY_NAMES,
  formTheme,
  weekdayNameOf,
  isCalendarDate,
  type OwnerQuiz,
} from '../../../worker/features/quizzes/contract';
import { SelectField, TextArea, TextField } from '../ui/Field';

export interface QuizFormValues {
  date: string;
  startTime: string;
  category: string;
  theme: string;
  customTheme: string;
  quizmaster: string;
  teamSize: string;
  price: string;
  description: string;
  recurring: boolean;
  pattern: 'weekly' | 'biweekly';
  days: string[];
  /** false until the owner ticks weekdays themselves: then the days follow the start date. */
  daysTouched: boolean;
  forever: boolean;
  until: string;
}

export function emptyQuizForm(today: string): QuizFormValues {
  return {
    date: today,
    startTime: '19:00',
    category: 'allmänbildning',
    theme: '',
    customTheme: '',
    quizmaster: '',
    teamSize: '',
    price: '',
    description: '',
    recurring: true,
    pattern: 'weekly',
    days: [weekdayNameOf(today)],
    daysTouched: false,
    forever: true,
    until: '',
  };
}

export function formFromQuiz(q: Pick<OwnerQuiz, 'startTime' | 'category' | 'theme' | 'quizmaster' | 'teamSize' | 'price' | 'description'> & { date?: string }, today: string): QuizFormValues {
  const legacy: Record<string, string> = { musik: 'Musik', musikquiz: 'Musik', sport: 'Sport', sportquiz: 'Sport', film: 'Film & TV', filmquiz: 'Film & TV' };
  const cat = (q.category ?? '').toLowerCase();
  const category = cat === 'tema' || legacy[cat] ? 'tema' : 'allmänbildning';
  const t = formTheme(cat === 'tema' ? q.theme : (legacy[cat] ?? null));
  const date = q.date ?? today;
  return {
    ...emptyQuizForm(date),
    date,
    startTime: (q.startTime ?? '19:00').slice(0, 5),
    category,
    theme: t.theme,
    customTheme: t.customTheme,
    quizmaster: q.quizmaster ?? '',
    teamSize: q.teamSize ? String(q.teamSize) : '',
    price: q.price != null ? String(q.price) : '',
    description: q.description ?? '',
  };
}

/** The contract's field values (no location, no recurrence). */
export function toFields(v: QuizFormValues) {
  return {
    startTime: v.startTime,
    category: v.category,
    theme: v.category === 'tema' && v.theme ? v.theme : null,
    customTheme: v.category === 'tema' && v.theme === 'Annat' ? v.customTheme : null,
    quizmaster: v.quizmaster,
    teamSize: v.teamSize ? Number(v.teamSize) : null,
    price: v.price.trim() === '' ? null : Number(v.price),
    description: v.description,
  };
}

export function toRecurrence(v: QuizFormValues) {
  return { pattern: v.pattern, days: v.days.length ? v.days : [weekdayNameOf(v.date)], until: v.forever ? null : v.until || null };
}

type Set = (patch: Partial<QuizFormValues>) => void;

/** Date (optional), start time, category, theme, quizmaster, team size, price, description. */
export function QuizDetailFields({ values, set, errors, withDate }: { values: QuizFormValues; set: Set; errors: Record<string, string>; withDate: boolean }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {withDate && (
          <TextField
            label="Datum"
            type="date"
            required
            value={values.date}
            error={errors.date}
            onChange={(e) => {
              const date = e.target.value;
              set({ date, ...(values.daysTouched || !isCalendarDate(date) ? {} : { days: [weekdayNameOf(date)] }) });
            }}
          />
        )}
        <TextField label="Starttid" type="time" required value={values.startTime} error={errors.startTime} onChange={(e) => set({ startTime: e.target.value })} />
      </div>
      <SelectField label="Kategori" required value={values.category} error={errors.category} onChange={(e) => set({ category: e.target.value })}>
        {QUIZ_CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {CATEGORY_LABELS[c]}
          </option>
        ))}
      </SelectField>
      {values.category === 'tema' && (
        <SelectField label="Tema" required value={values.theme} error={errors.theme} onChange={(e) => set({ theme: e.target.value })}>
          <option value="">Välj tema</option>
          {QUIZ_THEMES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
      )}
      {values.category === 'tema' && values.theme === 'Annat' && (
        <TextField label="Eget tema" required value={values.customTheme} error={errors.customTheme} onChange={(e) => set({ customTheme: e.target.value })} />
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label="Quizmaster (valfritt)" value={values.quizmaster} error={errors.quizmaster} onChange={(e) => set({ quizmaster: e.target.value })} />
        <SelectField label="Lagstorlek (valfritt)" value={values.teamSize} error={errors.teamSize} onChange={(e) => set({ teamSize: e.target.value })}>
          <option value="">Ingen gräns</option>
          {TEAM_SIZES.map((n) => (
            <option key={n} value={n}>
              Max {n} personer
            </option>
          ))}
        </SelectField>
        <TextField label="Pris i kronor (valfritt)" type="number" min={0} inputMode="numeric" value={values.price} error={errors.price} onChange={(e) => set({ price: e.target.value })} hint="Tomt = Gratis" />
      </div>
      <TextArea label="Beskrivning (valfritt)" value={values.description} error={errors.description} onChange={(e) => set({ description: e.target.value })} />
    </>
  );
}

/** Weekly/biweekly, weekdays (default: the start date's), forever or until a date. */
export function RecurrenceFields({ values, set, errors }: { values: QuizFormValues; set: Set; errors: Record<string, string> }) {
  const toggleDay = (day: string) => {
    const days = values.days.includes(day) ? values.days.filter((d) => d !== day) : [...values.days, day];
    set({ days: WEEKDAY_NAMES.filter((d) => days.includes(d)), daysTouched: true });
  };
  return (
    <div className="space-y-4 rounded-xl border border-slate-200 bg-slate-50 p-4">
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">Upprepning</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {(['weekly', 'biweekly'] as const).map((p) => (
            <label key={p} className="flex items-center gap-2">
              <input type="radio" name="pattern" value={p} checked={values.pattern === p} onChange={() => set({ pattern: p })} />
              {PATTERN_LABELS[p]}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset aria-describedby={errors.days ? 'days-error' : undefined}>
        <legend className="text-sm font-semibold text-slate-800">Veckodagar</legend>
        <div className="mt-2 flex flex-wrap gap-3">
          {WEEKDAY_NAMES.map((d) => (
            <label key={d} className="flex items-center gap-1.5 capitalize">
              <input type="checkbox" checked={values.days.includes(d)} onChange={() => toggleDay(d)} />
              {d}
            </label>
          ))}
        </div>
        {errors.days && (
          <p id="days-error" className="mt-1 text-sm font-medium text-red-700">
            {errors.days}
          </p>
        )}
      </fieldset>
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">Period</legend>
        <div className="mt-2 space-y-2">
          <label className="flex items-center gap-2">
            <input type="radio" name="period" checked={values.forever} onChange={() => set({ forever: true })} />
            För alltid (6 månader framåt, förlängs automatiskt)
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="period" checked={!values.forever} onChange={() => set({ forever: false })} />
            Till och med ett datum
          </label>
        </div>
      </fieldset>
      {!values.forever && (
        <TextField label="Slutdatum" type="date" min={values.date} required value={values.until} error={errors.until} onChange={(e) => set({ until: e.target.value })} />
      )}
    </div>
  );
}
