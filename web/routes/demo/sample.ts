/** Hard-coded sample data of the demo pages (spec 02 §2.10): not product flows, nothing is stored. */
export const SAMPLE_QUIZZES = [
  { id: 's1', venue: 'Puben Ankaret', city: 'Göteborg', date: '2026-12-01', time: '19:00', category: 'Allmänbildning', tier: 'premium' as const },
  { id: 's2', venue: 'Bar Kvarnen', city: 'Göteborg', date: '2026-12-02', time: '20:00', category: 'Musik', tier: 'recommended' as const },
  { id: 's3', venue: 'Krogen Hörnan', city: 'Göteborg', date: '2026-12-03', time: '19:30', category: 'Film & TV', tier: 'recommended' as const },
  { id: 's4', venue: 'Ölstugan', city: 'Göteborg', date: '2026-12-04', time: '19:00', category: 'Allmänbildning', tier: 'standard' as const },
  { id: 's5', venue: 'Kafé Lyktan', city: 'Göteborg', date: '2026-12-05', time: '18:30', category: 'Sport', tier: 'standard' as const },
];

const SV = new Intl.DateTimeFormat('sv-SE', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
export const demoDate = (d: string) => SV.format(new Date(`${d}T12:00:00Z`));
