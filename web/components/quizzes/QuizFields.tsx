/**
 * The quiz form (spec 02 §2.4, §5), shared by create quiz, edit quiz and edit series: react-hook-form
 * values as the inputs hold them (strings), and form schemas that turn them into the shared
 * contract's shape and validate with the contract itself (zodResolver), so the screens submit the
 * parsed contract data. The field components read the form from FormProvider.
 */
import { useFormContext } from 'react-hook-form';
import * as z from 'zod';
import {
  CATEGORY_LABELS,
  CreateQuizSchema,
  EditQuizSchema,
  EditSeriesSchema,
  PATTERN_LABELS,
  QUIZ_CATEGORIES,
  QUIZ_LANGUAGES,
  QUIZ_LANGUAGE_LABELS,
  QUIZ_THEMES,
  RECURRENCE_PATTERNS,
  TEAM_SIZES,
  WEEKDAY_NAMES,
  formTheme,
  weekdayNameOf,
  isCalendarDate,
  type CreateQuizInput,
  type EditQuizInput,
  type EditSeriesInput,
  type OwnerQuiz,
  type WeekdayName,
} from '../../../worker/features/quizzes/contract';
import { DateTimeField, SelectField, TextArea, TextField } from '../ui/Field';
import { SERIES_HORIZON_MONTHS } from '../../../worker/lib/recurrence';
import { countText } from '../../../worker/lib/swedish';

const FormShape = z.object({
  date: z.string(),
  startTime: z.string(),
  category: z.string(),
  theme: z.string(),
  customTheme: z.string(),
  quizmaster: z.string(),
  teamSize: z.string(),
  price: z.string(),
  description: z.string(),
  /** sv | en | both (issue 31.3). */
  language: z.string(),
  recurring: z.boolean(),
  pattern: z.enum(RECURRENCE_PATTERNS),
  days: z.array(z.string()),
  /** false until the owner ticks weekdays themselves: then the days follow the start date. */
  daysTouched: z.boolean(),
  forever: z.boolean(),
  until: z.string(),
});
export type QuizFormValues = z.infer<typeof FormShape>;

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
    language: 'sv',
    recurring: true,
    pattern: 'weekly',
    days: [weekdayNameOf(today)],
    daysTouched: false,
    forever: true,
    until: '',
  };
}

export function formFromQuiz(
  q: Pick<OwnerQuiz, 'startTime' | 'category' | 'theme' | 'quizmaster' | 'teamSize' | 'price' | 'description' | 'language'> & { date?: string },
  today: string,
): QuizFormValues {
  const legacy: Record<string, string> = { musik: 'Musik', musikquiz: 'Musik', sport: 'Sport', sportquiz: 'Sport', film: 'Film & TV', filmquiz: 'Film & TV' };
  const cat = (q.category ?? '').trim().toLowerCase();
  // An unknown category (a tip, a synced calendar) stays empty: the owner chooses, nothing is assumed (issue 44.3).
  const category = cat === '' ? '' : cat === 'tema' || legacy[cat] ? 'tema' : 'allmänbildning';
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
    language: q.language ?? 'sv',
  };
}

/** The contract's field values (no location, no recurrence); the contract then checks them. */
function toFields(v: QuizFormValues): EditSeriesInput {
  return {
    startTime: v.startTime,
    category: v.category as EditSeriesInput['category'],
    theme: (v.category === 'tema' && v.theme ? v.theme : null) as EditSeriesInput['theme'],
    customTheme: v.category === 'tema' && v.theme === 'Annat' ? v.customTheme : null,
    quizmaster: v.quizmaster,
    teamSize: v.teamSize ? Number(v.teamSize) : null,
    price: v.price.trim() === '' ? null : Number(v.price),
    description: v.description,
    language: v.language as EditSeriesInput['language'],
  };
}

function toRecurrence(v: QuizFormValues) {
  return { pattern: v.pattern, days: (v.days.length ? v.days : [weekdayNameOf(v.date)]) as WeekdayName[], until: v.forever ? null : v.until || null };
}

/** 'Till och med ett datum' needs the date (the contract reads a missing date as 'för alltid'). */
function untilGiven(v: QuizFormValues, ctx: z.RefinementCtx) {
  if (v.recurring && !v.forever && !v.until) ctx.addIssue({ code: 'custom', path: ['until'], message: 'Ange ett slutdatum' });
}

/** /admin/create-quiz: the form plus the place → CreateQuizSchema. */
export const CreateQuizForm = FormShape.extend({ locationId: z.string() })
  .superRefine(untilGiven)
  .transform(
    (v): CreateQuizInput => ({ locationId: v.locationId, date: v.date, ...toFields(v), recurring: v.recurring, ...(v.recurring ? toRecurrence(v) : {}) }),
  )
  .pipe(CreateQuizSchema);
export type CreateQuizFormValues = z.input<typeof CreateQuizForm>;

/**
 * One quiz → EditQuizSchema. A single quiz ticked 'Återkommande' becomes a new series; an occurrence
 * unticked becomes single (`recurring: false`); otherwise only this quiz's fields change.
 */
export function editQuizForm(wasRecurring: boolean) {
  return FormShape.superRefine((v, ctx) => {
    if (!wasRecurring) untilGiven(v, ctx);
  })
    .transform((v): EditQuizInput => {
      const base = { date: v.date, ...toFields(v) };
      if (!wasRecurring && v.recurring) return { ...base, recurring: true, ...toRecurrence(v) };
      if (wasRecurring && !v.recurring) return { ...base, recurring: false };
      return base;
    })
    .pipe(EditQuizSchema);
}

/** A whole series → EditSeriesSchema (the fields only). */
export const EditSeriesForm = FormShape.transform(toFields).pipe(EditSeriesSchema);

/** Date (optional), start time, category, theme, language, quizmaster, team size, price, description. */
export function QuizDetailFields({ withDate }: { withDate: boolean }) {
  const { register, watch, getValues, setValue, formState } = useFormContext<QuizFormValues>();
  const errors = formState.errors;
  const [category, theme, date, startTime] = watch(['category', 'theme', 'date', 'startTime']);
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {withDate && (
          <DateTimeField
            label="Datum"
            type="date"
            current={date}
            required
            error={errors.date?.message}
            {...register('date', {
              onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
                const date = e.target.value;
                if (!getValues('daysTouched') && isCalendarDate(date)) setValue('days', [weekdayNameOf(date)]);
              },
            })}
          />
        )}
        <DateTimeField label="Starttid" type="time" current={startTime} required error={errors.startTime?.message} {...register('startTime')} />
      </div>
      <SelectField label="Kategori" required error={errors.category?.message} {...register('category')}>
        {category === '' && <option value="">Välj kategori</option>}
        {QUIZ_CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {CATEGORY_LABELS[c]}
          </option>
        ))}
      </SelectField>
      {category === 'tema' && (
        <SelectField label="Tema" required error={errors.theme?.message} {...register('theme')}>
          <option value="">Välj tema</option>
          {QUIZ_THEMES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
      )}
      {category === 'tema' && theme === 'Annat' && <TextField label="Eget tema" required error={errors.customTheme?.message} {...register('customTheme')} />}
      <SelectField label="Språk" required error={errors.language?.message} hint="Det språk quizet hålls på" {...register('language')}>
        {QUIZ_LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {QUIZ_LANGUAGE_LABELS[l]}
          </option>
        ))}
      </SelectField>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label="Quizmaster (valfritt)" error={errors.quizmaster?.message} {...register('quizmaster')} />
        <SelectField label="Lagstorlek (valfritt)" error={errors.teamSize?.message} {...register('teamSize')}>
          <option value="">Ingen gräns</option>
          {TEAM_SIZES.map((n) => (
            <option key={n} value={n}>
              Max {n} personer
            </option>
          ))}
        </SelectField>
        <TextField
          label="Pris i kronor (valfritt)"
          type="number"
          min={0}
          inputMode="numeric"
          error={errors.price?.message}
          hint="0 = gratis. Tomt visas som ”Pris ej angivet”."
          {...register('price')}
        />
      </div>
      <TextArea label="Beskrivning (valfritt)" error={errors.description?.message} {...register('description')} />
    </>
  );
}

/** The 'Återkommande quiz' checkbox. */
export function RecurringToggle() {
  const { register } = useFormContext<QuizFormValues>();
  return (
    <label className="flex items-center gap-2 font-semibold">
      <input type="checkbox" {...register('recurring')} />
      Återkommande quiz
    </label>
  );
}

/** Weekly/biweekly, weekdays (default: the start date's), forever or until a date. */
export function RecurrenceFields() {
  const { register, watch, setValue, formState } = useFormContext<QuizFormValues>();
  const errors = formState.errors;
  const [days, forever, date, until] = watch(['days', 'forever', 'date', 'until']);
  const daysError = errors.days?.message;
  const toggleDay = (day: string) => {
    const next = days.includes(day) ? days.filter((d) => d !== day) : [...days, day];
    setValue(
      'days',
      WEEKDAY_NAMES.filter((d) => next.includes(d)),
    );
    setValue('daysTouched', true);
  };
  return (
    <div className="space-y-4 rounded-xl border border-slate-200 bg-slate-50 p-4">
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">Upprepning</legend>
        <div className="mt-2 flex flex-wrap gap-4">
          {RECURRENCE_PATTERNS.map((p) => (
            <label key={p} className="flex items-center gap-2">
              <input type="radio" value={p} {...register('pattern')} />
              {PATTERN_LABELS[p]}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset aria-describedby={daysError ? 'days-error' : undefined}>
        <legend className="text-sm font-semibold text-slate-800">Veckodagar</legend>
        <div className="mt-2 flex flex-wrap gap-3">
          {WEEKDAY_NAMES.map((d) => (
            <label key={d} className="flex items-center gap-1.5 capitalize">
              <input type="checkbox" checked={days.includes(d)} onChange={() => toggleDay(d)} />
              {d}
            </label>
          ))}
        </div>
        {daysError && (
          <p id="days-error" className="mt-1 text-sm font-medium text-red-700">
            {daysError}
          </p>
        )}
      </fieldset>
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">Period</legend>
        <div className="mt-2 space-y-2">
          <label className="flex items-center gap-2">
            <input type="radio" name="period" checked={forever} onChange={() => setValue('forever', true)} />
            För alltid ({countText(SERIES_HORIZON_MONTHS, 'månad', 'månader')} framåt, förlängs automatiskt)
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="period" checked={!forever} onChange={() => setValue('forever', false)} />
            Till och med ett datum
          </label>
        </div>
      </fieldset>
      {!forever && <DateTimeField label="Slutdatum" type="date" current={until} min={date} required error={errors.until?.message} {...register('until')} />}
    </div>
  );
}
