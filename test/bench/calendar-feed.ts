/**
 * CPU of mapping one calendar (worker/features/calendar-sync/ics.ts) in this Node's V8, the engine workerd
 * runs: the hostile calendar of issue 42.2 and the largest calendars the limits let through. Each case is
 * mapped six times; the first run is the cold one (no JIT yet), as in a fresh isolate.
 *   npx tsx test/bench/calendar-feed.ts
 */
import { mapCalendar } from '../../worker/features/calendar-sync/ics';
import { MAX_EVENTS_PER_FEED } from '../../worker/features/calendar-sync/contract';
import { hostileCalendar } from '../fixtures/hostile-calendar';

const TODAY = '2030-03-05';
const cal = (events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//bench//EN', ...events, 'END:VCALENDAR'].join('\r\n');
/** Single events with a long description: as close to the 1 MB download limit as the event limit allows. */
const singles = cal(
  Array.from({ length: MAX_EVENTS_PER_FEED }, (_, i) =>
    [
      'BEGIN:VEVENT',
      `UID:single-${i}@example.se`,
      `DTSTART:2030${String(3 + (i % 6)).padStart(2, '0')}${String(1 + (i % 28)).padStart(2, '0')}T180000Z`,
      `SUMMARY:Quiz ${i}`,
      `DESCRIPTION:${'Välkomna till kvällens quiz. '.repeat(13)}`,
      'END:VEVENT',
    ].join('\r\n'),
  ),
);

const cases: Array<[string, string]> = [
  ['hostile: 2 000 weekly rules from 1990 (refused)', hostileCalendar()],
  ['300 weekly rules from 1990 (within the step budget)', hostileCalendar(300)],
  [`${MAX_EVENTS_PER_FEED} single events`, singles],
];
for (const [label, text] of cases) {
  const ms: number[] = [];
  let outcome = '';
  for (let r = 0; r < 6; r++) {
    const before = process.cpuUsage();
    try {
      const m = mapCalendar(text, TODAY);
      outcome = `${m.occurrences.length} quizzes, ${m.steps} steps`;
    } catch (err) {
      outcome = (err as Error).name;
    }
    const d = process.cpuUsage(before);
    ms.push(Math.round((d.user + d.system) / 1000));
  }
  console.log(
    `${label} (${Math.round(new TextEncoder().encode(text).length / 1000)} kB): ${outcome}; CPU ms cold ${ms[0]}, warm median ${ms.slice(1).sort((a, b) => a - b)[2]}`,
  );
}
