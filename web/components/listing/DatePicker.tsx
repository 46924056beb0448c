import { ChevronLeft, ChevronRight } from '../ui/icons';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { addDays, isoWeekday, startOfIsoWeek } from '../../../worker/lib/clock';
import { displayDate, WEEKDAYS } from '../../../worker/lib/swedish';

const WEEK_HEADERS = WEEKDAYS.map((w) => [w.short, w.name] as const);
const MONTHS = ['januari', 'februari', 'mars', 'april', 'maj', 'juni', 'juli', 'augusti', 'september', 'oktober', 'november', 'december'];

function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}
function shiftMonth(first: string, by: number): string {
  const y = Number(first.slice(0, 4));
  const m = Number(first.slice(5, 7)) - 1 + by;
  const d = new Date(Date.UTC(y, m, 1));
  return d.toISOString().slice(0, 10);
}

/**
 * Date picker (spec 01 §2, §5): the week starts on Monday and days before today are disabled. A button
 * with the chosen date opens a month grid; Escape or a choice closes it. `name` keeps the value in the
 * plain GET form for visitors without JavaScript.
 */
export function DatePicker({ id, name, value, today, onChange }: { id: string; name: string; value: string; today: string; onChange: (date: string) => void }) {
  const [open, setOpen] = useState(false);
  const [month, setMonth] = useState(monthStart(value || today));
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onDoc = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDoc);
    return () => document.removeEventListener('mousedown', onDoc);
  }, [open]);

  const gridStart = startOfIsoWeek(month);
  const nextMonth = shiftMonth(month, 1);
  const days: string[] = [];
  for (let d = gridStart; d < nextMonth || isoWeekday(d) !== 1; d = addDays(d, 1)) days.push(d);
  const weeks: string[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  const canGoBack = month > monthStart(today);

  function choose(d: string) {
    onChange(d);
    setOpen(false);
  }
  // Escape closes the panel, from its button or from inside it, and goes no further (an open filter sheet stays).
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape' && open) {
      e.stopPropagation();
      setOpen(false);
    }
  }

  return (
    <div ref={root} className="relative">
      <input type="hidden" name={name} value={value} />
      <button
        id={id}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={panelId}
        data-value={value}
        onKeyDown={onKeyDown}
        onClick={() => {
          setMonth(monthStart(value || today));
          setOpen((o) => !o);
        }}
        className="w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-left text-slate-900 lg:h-10 lg:py-2"
      >
        {value ? displayDate(value) : 'Alla datum'}
      </button>
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label="Välj datum"
          onKeyDown={onKeyDown}
          className="absolute z-20 mt-2 w-72 rounded-2xl border border-slate-200 bg-white p-3 shadow-xl"
        >
          <div className="mb-2 flex items-center justify-between">
            <button
              type="button"
              aria-label="Föregående månad"
              disabled={!canGoBack}
              onClick={() => setMonth(shiftMonth(month, -1))}
              className="rounded-lg px-2 py-1 text-lg disabled:text-slate-300 hover:bg-slate-100"
            >
              <ChevronLeft aria-hidden="true" className="size-5" />
            </button>
            <p className="font-semibold" aria-live="polite">
              {MONTHS[Number(month.slice(5, 7)) - 1]} {month.slice(0, 4)}
            </p>
            <button
              type="button"
              aria-label="Nästa månad"
              onClick={() => setMonth(shiftMonth(month, 1))}
              className="rounded-lg px-2 py-1 text-lg hover:bg-slate-100"
            >
              <ChevronRight aria-hidden="true" className="size-5" />
            </button>
          </div>
          <table className="w-full table-fixed text-center text-sm">
            <thead>
              <tr>
                {WEEK_HEADERS.map(([short, long]) => (
                  <th key={short} scope="col" abbr={long} className="pb-1 font-semibold text-slate-600">
                    {short}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {weeks.map((w) => (
                <tr key={w[0]}>
                  {w.map((d) => {
                    const inMonth = d.slice(0, 7) === month.slice(0, 7);
                    const past = d < today;
                    const selected = d === value;
                    return (
                      <td key={d} className="p-0.5">
                        <button
                          type="button"
                          disabled={past}
                          aria-pressed={selected}
                          aria-label={displayDate(d)}
                          onClick={() => choose(d)}
                          className={`h-8 w-8 rounded-lg ${selected ? 'bg-brand-600 font-bold text-white' : past ? 'text-slate-400 line-through' : inMonth ? 'text-slate-900 hover:bg-brand-50' : 'text-slate-500 hover:bg-brand-50'} ${d === today && !selected ? 'ring-1 ring-brand-600' : ''}`}
                        >
                          {Number(d.slice(8, 10))}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
          <div className="mt-2 flex justify-between text-sm font-semibold">
            <button type="button" className="text-brand-700 hover:underline" onClick={() => choose(today)}>
              Idag
            </button>
            {value && (
              <button type="button" className="text-slate-700 hover:underline" onClick={() => choose('')}>
                Rensa datum
              </button>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
