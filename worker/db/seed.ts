/**
 * Demo data as plain SQL statements, so one definition serves `npm run db:seed` (written to a file and
 * applied with `wrangler d1 execute`) and the integration tests (run on the D1 binding).
 * Idempotent: fixed ids and INSERT OR IGNORE, so seeding twice changes nothing. Dates are relative to
 * `today` (Stockholm), so the demo never goes stale.
 */
import { addDays, isoWeekday, nextWeekdayOnOrAfter } from '../lib/clock';
import { chunks } from '../lib/chunks';
import { slugify } from '../lib/slug';
import { SERIES_HORIZON_DAYS } from '../features/quizzes/contract';
import { computeStandings, rankScores, teamNameKey } from '../features/results/contract';
import { WEEKDAYS } from '../lib/swedish';
import { CATEGORY_CYCLE, QUIZMASTERS, SEED_CITIES } from './seed-data';

export interface SeedAccounts {
  /** Pre-computed password hashes (worker/lib/password.ts) for the two demo logins. */
  superadminHash: string;
  ownerHash: string;
  houseEmail: string;
}

export const DEMO_SUPERADMIN = { email: 'admin@quizkvall.local', password: 'quizkvall-admin' };
export const DEMO_OWNER = { email: 'agare@quizkvall.local', password: 'quizkvall-agare' };

export function sqlValue(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('non-finite number in seed');
    return String(v);
  }
  return `'${v.replace(/'/g, "''")}'`;
}

function insert(table: string, row: Record<string, string | number | boolean | null | undefined>): string {
  const cols = Object.keys(row);
  return `INSERT OR IGNORE INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((c) => sqlValue(row[c])).join(', ')});`;
}

/**
 * Issue 31.3: the demo's quiz nights held in English or in both languages (Stockholm and Göteborg, where many
 * are); every other venue's quizzes are in Swedish. By name, so the choice does not move with the venue order.
 */
export const DEMO_QUIZ_LANGUAGES: Readonly<Record<string, 'en' | 'both'>> = {
  'The Liffey': 'en',
  'Bishops Arms Odenplan': 'both',
  'Brewers Beer Bar': 'en',
  'Bishops Arms Järntorget': 'both',
};

export function buildDemoSeed(today: string, accounts: SeedAccounts): string[] {
  const out: string[] = [];
  const users = [
    { id: 'seed-user-superadmin', email: DEMO_SUPERADMIN.email, hash: accounts.superadminHash, roles: ['admin', 'superadmin'] },
    { id: 'seed-user-owner', email: DEMO_OWNER.email, hash: accounts.ownerHash, roles: ['admin'] },
    { id: 'seed-user-house', email: accounts.houseEmail, hash: null, roles: ['admin'] },
    ...['kroglaget', 'pubgruppen', 'quizbolaget', 'barkompaniet', 'ölfabriken'].map((n, i) => ({
      id: `seed-user-real-${i + 1}`,
      email: `${slugify(n)}@example.se`,
      hash: null,
      roles: ['admin'],
    })),
  ];
  for (const u of users) {
    out.push(insert('users', { id: u.id, email: u.email, email_verified_at: `${today}T08:00:00.000Z` }));
    if (u.hash) out.push(insert('password_credentials', { user_id: u.id, hash: u.hash }));
    out.push(insert('profiles', { user_id: u.id, first_name: null, last_name: null, phone: null }));
    for (const r of u.roles) out.push(insert('user_roles', { user_id: u.id, role: r }));
  }

  let vi = 0;
  /** Past nights of the two results venues (issue 46), filled with results below. */
  const resultNights: Array<{ quizId: string; vi: number; date: string }> = [];
  const premiumCandidates: Array<{ quizId: string; date: string; citySlug: string }> = [];
  const recommendedCandidates: Array<{ quizId: string; date: string; citySlug: string }> = [];
  for (const city of SEED_CITIES) {
    city.venues.forEach(([name, street, lat, lng]) => {
      vi++;
      const venueId = `seed-venue-${String(vi).padStart(2, '0')}`;
      // About 60 % unclaimed (house account), the demo owner has two, the rest belong to other real owners.
      const owner = vi === 1 || vi === 7 ? 'seed-user-owner' : vi % 5 < 3 ? 'seed-user-house' : `seed-user-real-${(vi % 5) + 1}`;
      const citySlug = slugify(city.name);
      const website = `https://www.${slugify(name)}.se`;
      const phone = `0${(vi % 9) + 1}${vi % 3}-${String(100000 + vi * 7919).slice(0, 6)}`;
      out.push(
        insert('venues', {
          id: venueId,
          user_id: owner,
          name,
          slug: slugify(name),
          city: city.name,
          address: `${street}, ${city.name}`,
          description: `${name} är en omtyckt kvarterskrog i ${city.name} med quiz, gott öl och mat från köket. Boka bord i god tid – det blir ofta fullt på quizkvällarna.`,
          phone,
          website,
          is_public: vi !== 40,
        }),
      );
      const locationId = `seed-loc-${String(vi).padStart(2, '0')}`;
      out.push(
        insert('locations', {
          id: locationId,
          venue_id: venueId,
          name,
          address: street,
          city: city.name,
          city_slug: citySlug,
          phone,
          website,
          latitude: lat,
          longitude: lng,
        }),
      );

      // One series per venue, on one or two weekdays, weekly or biweekly.
      const weekdays = vi % 5 === 0 ? [(vi % 7) + 1, ((vi + 2) % 7) + 1] : [(vi % 7) + 1];
      const pattern = vi % 4 === 3 ? 'biweekly' : 'weekly';
      const [category, theme] = CATEGORY_CYCLE[vi % CATEGORY_CYCLE.length]!;
      const recurrenceId = `seed-series-${String(vi).padStart(2, '0')}`;
      const startTime = vi % 11 === 0 ? null : ['18:00:00', '18:30:00', '19:00:00', '19:30:00', '20:00:00', '20:30:00'][vi % 6]!;
      // Entry fees from free to 80 kr, so each price filter ('Gratis', 'Högst 50 kr') shows something different.
      const price = [0, 20, 60, 40, 80, 0, 0, 50][vi % 8] ?? 0;
      const teamSize = [2, 3, 4, 5, 6, 8][vi % 6]!;
      const quizmaster = QUIZMASTERS[vi % QUIZMASTERS.length]!;
      const language = DEMO_QUIZ_LANGUAGES[name] ?? 'sv';
      const start = addDays(today, -14);
      const until = addDays(today, SERIES_HORIZON_DAYS);
      const days = weekdays.map((w) => WEEKDAYS[w - 1]!.name);
      let n = 0;
      for (const wd of weekdays) {
        for (let d = nextWeekdayOnOrAfter(start, wd); d <= until; d = addDays(d, pattern === 'weekly' ? 7 : 14)) {
          n++;
          const quizId = `${recurrenceId}-${wd}-${n}`;
          out.push(
            insert('quizzes', {
              id: quizId,
              location_id: locationId,
              date: d,
              start_time: startTime,
              category,
              theme,
              description: theme ? `Temaquiz: ${theme}. Sex ronder, bildrunda och final.` : 'Klassiskt pubquiz med blandade frågor, bildrunda och musikrunda.',
              quizmaster,
              team_size: teamSize,
              price,
              is_recurring: true,
              recurrence_id: recurrenceId,
              recurrence_pattern: pattern,
              recurrence_days: JSON.stringify(days),
              recurrence_until: null,
              language,
              // One cancelled occurrence in the demo, shown as 'Inställt'.
              is_cancelled: vi === 3 && d > today && d <= addDays(today, 14) && isoWeekday(d) === wd && n % 2 === 0,
            }),
          );
          if ((vi === 1 || vi === 2) && d < today) resultNights.push({ quizId, vi, date: d });
          if (d >= today && d <= addDays(today, 6)) {
            if (citySlug === 'stockholm' && vi === 2) premiumCandidates.push({ quizId, date: d, citySlug });
            if ([4, 8, 13].includes(vi)) recommendedCandidates.push({ quizId, date: d, citySlug });
          }
        }
      }
      // A single special quiz at every third venue.
      if (vi % 3 === 0) {
        out.push(
          insert('quizzes', {
            id: `seed-single-${String(vi).padStart(2, '0')}`,
            location_id: locationId,
            date: addDays(today, (vi % 20) + 1),
            start_time: '20:00:00',
            title: 'Specialquiz',
            category: 'tema',
            theme: vi % 2 ? 'Jul' : 'Eurovision',
            description: 'Ett enskilt specialquiz med extra fina priser.',
            quizmaster,
            team_size: 6,
            price: 60,
            is_recurring: false,
            language,
          }),
        );
      }
    });
  }

  // Issue 48: one quizmaster with a profile leads the series of three Stockholm venues (seed venues 2–4).
  out.push(
    insert('quizmasters', {
      id: 'seed-qm-sara',
      name: 'Sara Berg',
      name_key: 'sara berg',
      slug: 'sara-berg',
      bio: 'Sara har lett pubquiz i Stockholm sedan 2012. Hon älskar musikrundor, bildfrågor och en rejäl utslagsfråga.',
      created_by: 'seed-user-owner',
    }),
  );
  for (const n of ['02', '03', '04']) {
    out.push(
      insert('quizmaster_links', { unit_key: `seed-series-${n}`, quizmaster_id: 'seed-qm-sara', location_id: `seed-loc-${n}`, venue_id: `seed-venue-${n}` }),
      insert('quizmaster_announcements', { quizmaster_id: 'seed-qm-sara', location_id: `seed-loc-${n}` }),
    );
  }

  // Paid promotions: one Premium Utvald in Stockholm, three Rekommenderat in other cities.
  out.push(
    insert('checkout_orders', {
      id: 'seed-order-1',
      user_id: 'seed-user-real-2',
      kind: 'marketing',
      status: 'paid',
      amount_total: 9800 + 3 * 4900,
      items: '[]',
      expires_at: 0,
      stripe_session_id: 'cs_seed_demo',
    }),
  );
  const promos = [
    ...premiumCandidates.slice(0, 1).map((p) => ({ ...p, tier: 'premium' as const, amount: 9800 })),
    ...recommendedCandidates.slice(0, 3).map((p) => ({ ...p, tier: 'recommended' as const, amount: 4900 })),
  ];
  promos.forEach((p, i) => {
    out.push(
      insert('promotions', {
        id: `seed-promo-${i + 1}`,
        quiz_id: p.quizId,
        order_id: 'seed-order-1',
        product_type: p.tier,
        status: 'active',
        start_date: p.date,
        end_date: p.date,
        weeks: null,
        amount_paid: p.amount,
        metadata: '{"seed":true}',
      }),
    );
    out.push(
      insert('promotion_slot_claims', {
        id: `seed-claim-${i + 1}`,
        order_id: 'seed-order-1',
        quiz_id: p.quizId,
        city_slug: p.citySlug,
        date: p.date,
        tier: p.tier,
        slot_no: 1,
        state: 'sold',
      }),
    );
  });

  out.push(...demoResults(today, resultNights));

  out.push(
    insert('feedback', {
      id: 'seed-feedback-1',
      category: 'feature',
      title: 'Karta över quiz',
      description: 'Det vore toppen att se alla quiz på en karta!',
      sender_email: 'besokare@example.se',
    }),
  );
  return mergeInserts(out);
}

/** Demo teams (issue 46): team names only. Teams 3–8 play at both results venues. */
const DEMO_TEAMS = [
  'Quizzly Bears',
  'Besserwissrarna',
  'Frågvisa Fåglar',
  'Allvetarna',
  'Svarslösa',
  'Tipsrundan',
  'Kunskapsbankirerna',
  'Hjärnkontoret',
  'Poängjägarna',
  'Faktakollen',
  'Nördarna på hörnet',
  'Sista Svaret',
];
/** Weeks of past nights before the series' own first date (today − 14) that the results venues get. */
const DEMO_RESULT_WEEKS = 8;

/**
 * Two Stockholm venues (venue 1, the demo owner's, and venue 2) with a season of past weekly nights and results
 * (issue 46): older occurrences before the series' own, results for every past night but venue 1's latest (the
 * owner's "Kvällar utan resultat"), a season per series with its table computed by the same rules as the app.
 */
function demoResults(today: string, seriesNights: Array<{ quizId: string; vi: number; date: string }>): string[] {
  const out: string[] = [];
  const code = (i: number) => `QKT${'23456789'[Math.floor(i / 64) % 8]}${'23456789'[Math.floor(i / 8) % 8]}${'23456789'[i % 8]}`;
  DEMO_TEAMS.forEach((name, i) => {
    out.push(
      insert('teams', {
        id: `seed-team-${i + 1}`,
        name,
        name_key: teamNameKey(name),
        slug: slugify(name),
        code: code(i),
        created_at: `${addDays(today, -80)}T12:00:00.000Z`,
      }),
    );
  });
  for (const vi of [1, 2]) {
    const pad = String(vi).padStart(2, '0');
    const seriesId = `seed-series-${pad}`;
    const own = seriesNights.filter((n) => n.vi === vi).sort((a, b) => (a.date < b.date ? -1 : 1));
    const first = own[0]!;
    const older = Array.from({ length: DEMO_RESULT_WEEKS }, (_, k) => ({
      quizId: `${seriesId}-past-${k + 1}`,
      vi,
      date: addDays(first.date, -7 * (DEMO_RESULT_WEEKS - k)),
    }));
    for (const n of older) {
      out.push(
        insert('quizzes', {
          id: n.quizId,
          location_id: `seed-loc-${pad}`,
          date: n.date,
          start_time: vi === 1 ? '18:30:00' : '19:00:00',
          category: 'allmänbildning',
          description: 'Klassiskt pubquiz med blandade frågor, bildrunda och musikrunda.',
          is_recurring: true,
          recurrence_id: seriesId,
          recurrence_pattern: 'weekly',
          recurrence_days: JSON.stringify([WEEKDAYS[isoWeekday(n.date) - 1]!.name]),
          recurrence_until: null,
        }),
      );
    }
    // Venue 1's latest night is left without results: the owner's dashboard lists it.
    const nights = [...older, ...own].slice(0, vi === 1 ? -1 : undefined);
    const teamIdx = vi === 1 ? [0, 1, 2, 3, 4, 5, 6, 7, 8] : [3, 4, 5, 6, 7, 8, 9, 10, 11];
    const stored: Array<Array<{ teamId: string; score: number; rank: number }>> = [];
    nights.forEach((n, k) => {
      // Not every team every night: team t skips nights where (t + k) % 5 == 0.
      const playing = teamIdx.filter((t) => (t + k) % 5 !== 0);
      const ranked = rankScores(playing.map((t) => ({ teamId: `seed-team-${t + 1}`, score: 20 + ((t * 7 + k * 13 + vi * 5) % 25) })));
      stored.push(ranked);
      out.push(
        insert('result_nights', {
          quiz_id: n.quizId,
          venue_id: `seed-venue-${pad}`,
          location_id: `seed-loc-${pad}`,
          series_id: seriesId,
          date: n.date,
          team_count: ranked.length,
          first_posted_at: `${n.date}T21:30:00.000Z`,
          created_at: `${n.date}T21:30:00.000Z`,
          updated_at: `${n.date}T21:30:00.000Z`,
        }),
      );
      for (const r of ranked) {
        out.push(
          insert('results', {
            quiz_id: n.quizId,
            team_id: r.teamId,
            score: r.score,
            rank: r.rank,
            date: n.date,
            venue_id: `seed-venue-${pad}`,
            location_id: `seed-loc-${pad}`,
          }),
        );
      }
    });
    const seasonId = `seed-season-${pad}`;
    const preset = vi === 1 ? 'placing_15' : 'total';
    out.push(
      insert('seasons', {
        id: seasonId,
        series_id: seriesId,
        venue_id: `seed-venue-${pad}`,
        name: 'Höstsäsongen',
        start_date: older[0]!.date,
        end_date: addDays(today, 60),
        preset,
        params: '{}',
      }),
    );
    computeStandings(preset, {}, stored).forEach((st, i) => {
      const t = Number(st.teamId.slice('seed-team-'.length)) - 1;
      out.push(
        insert('season_standings', {
          season_id: seasonId,
          team_id: st.teamId,
          team_name: DEMO_TEAMS[t]!,
          team_slug: slugify(DEMO_TEAMS[t]!),
          hidden: false,
          points: st.points,
          nights: st.nights,
          rank: st.rank,
          position: i + 1,
        }),
      );
    });
  }
  return out;
}

/** Rows per merged INSERT: ~300 bytes a quiz row keeps a statement far below D1's 100 KB statement limit. */
export const MERGE_MAX_ROWS = 100;

const SINGLE_ROW_INSERT = /^(INSERT OR IGNORE INTO \w+ \([^)]*\) VALUES )(\(.*\));$/s;

/**
 * Consecutive single-row inserts into the same table with the same columns, as one multi-row insert each
 * (at most MERGE_MAX_ROWS rows), in the same order. SQLite inserts a multi-row INSERT's rows one after the
 * other, OR IGNORE and the FOR EACH ROW triggers apply per row, so the database ends up the same; but
 * `wrangler d1 execute --file` spends ~9 ms per statement (13 of the demo seed's 17 s at 1 468 statements,
 * paid by every `npm start` on a new database and every e2e app; issue 27).
 */
export function mergeInserts(statements: readonly string[], maxRows = MERGE_MAX_ROWS): string[] {
  const out: string[] = [];
  let head: string | null = null;
  let rows: string[] = [];
  const flush = () => {
    if (head !== null) out.push(`${head}${rows.join(', ')};`);
    head = null;
    rows = [];
  };
  for (const statement of statements) {
    const m = SINGLE_ROW_INSERT.exec(statement);
    if (!m) {
      flush();
      out.push(statement);
      continue;
    }
    if (m[1] !== head || rows.length >= maxRows) flush();
    head = m[1]!;
    rows.push(m[2]!);
  }
  flush();
  return out;
}

/**
 * Benchmark data (`npm run db:seed -- --scale N`): N quiz rows as weekly series of 26 occurrences (one
 * week back, the rest ahead), at venues spread over real Swedish towns with a constant density of
 * SCALE_VENUES_PER_CITY, so a bigger catalogue means more towns (as it would across Europe), not fuller
 * towns. A third of the venues are unclaimed (house account). Multi-row inserts keep statements bounded.
 */
export const SCALE_VENUES_PER_CITY = 25;
export const SCALE_CITIES = [
  'Stockholm',
  'Göteborg',
  'Malmö',
  'Uppsala',
  'Västerås',
  'Örebro',
  'Linköping',
  'Helsingborg',
  'Jönköping',
  'Norrköping',
  'Lund',
  'Umeå',
  'Gävle',
  'Borås',
  'Södertälje',
  'Eskilstuna',
  'Halmstad',
  'Växjö',
  'Karlstad',
  'Sundsvall',
  'Östersund',
  'Trollhättan',
  'Luleå',
  'Lidingö',
  'Borlänge',
  'Tumba',
  'Kristianstad',
  'Kalmar',
  'Falun',
  'Skövde',
  'Karlskrona',
  'Skellefteå',
  'Uddevalla',
  'Varberg',
  'Åkersberga',
  'Örnsköldsvik',
  'Landskrona',
  'Nyköping',
  'Vallentuna',
  'Motala',
  'Trelleborg',
  'Ängelholm',
  'Karlskoga',
  'Märsta',
  'Lerum',
  'Alingsås',
  'Sandviken',
  'Kungälv',
  'Vänersborg',
  'Piteå',
  'Visby',
  'Enköping',
  'Katrineholm',
  'Falkenberg',
  'Ystad',
  'Kungsbacka',
  'Mölndal',
  'Partille',
  'Sollentuna',
  'Täby',
  'Kiruna',
  'Härnösand',
  'Hudiksvall',
  'Bollnäs',
  'Söderhamn',
  'Ljusdal',
  'Mora',
  'Leksand',
  'Rättvik',
  'Ludvika',
  'Avesta',
  'Sala',
  'Köping',
  'Arboga',
  'Fagersta',
  'Lindesberg',
  'Kumla',
  'Hallsberg',
  'Askersund',
  'Mariestad',
  'Lidköping',
  'Falköping',
  'Tidaholm',
  'Skara',
  'Hjo',
  'Ulricehamn',
  'Tranemo',
  'Vetlanda',
  'Nässjö',
  'Eksjö',
  'Tranås',
  'Gislaved',
  'Värnamo',
  'Ljungby',
  'Älmhult',
  'Osby',
  'Hässleholm',
  'Höör',
  'Eslöv',
  'Staffanstorp',
  'Vellinge',
  'Höllviken',
  'Simrishamn',
  'Sölvesborg',
  'Karlshamn',
  'Ronneby',
  'Nybro',
  'Oskarshamn',
  'Västervik',
  'Vimmerby',
  'Finspång',
  'Mjölby',
  'Vadstena',
  'Söderköping',
  'Valdemarsvik',
  'Oxelösund',
  'Flen',
  'Strängnäs',
  'Trosa',
  'Nynäshamn',
  'Norrtälje',
  'Sigtuna',
  'Knivsta',
  'Östhammar',
  'Tierp',
  'Hofors',
  'Storvreta',
  'Kramfors',
  'Sollefteå',
  'Timrå',
  'Järna',
  'Sveg',
  'Åre',
  'Strömsund',
  'Lycksele',
  'Vilhelmina',
  'Storuman',
  'Arvidsjaur',
  'Boden',
  'Kalix',
  'Haparanda',
  'Gällivare',
  'Jokkmokk',
  'Arvika',
  'Kristinehamn',
  'Säffle',
  'Hagfors',
  'Torsby',
  'Filipstad',
  'Åmål',
  'Bengtsfors',
  'Strömstad',
  'Lysekil',
  'Stenungsund',
  'Kungshamn',
  'Henån',
  'Skärhamn',
  'Ellös',
  'Kinna',
  'Svenljunga',
  'Hyltebruk',
  'Laholm',
  'Båstad',
  'Torekov',
  'Höganäs',
  'Bjuv',
  'Åstorp',
  'Klippan',
  'Perstorp',
  'Örkelljunga',
];
const SCALE_VENUE_KINDS = ['Puben', 'Krogen', 'Ölstugan', 'Bryggeriet', 'Kvarterskrogen', 'Bistron', 'Tavernan', 'Ölhallen', 'Salongen', 'Källaren'];
const SCALE_VENUE_NAMES = [
  'Ankaret',
  'Lyktan',
  'Kronan',
  'Måsen',
  'Hörnet',
  'Tunnan',
  'Björken',
  'Fyren',
  'Ugglan',
  'Vågen',
  'Älgen',
  'Stjärnan',
  'Hamnen',
  'Torget',
  'Kvarnen',
];
const SCALE_STREETS = ['Storgatan', 'Drottninggatan', 'Kungsgatan', 'Järnvägsgatan', 'Östra Långgatan', 'Västra Vägen', 'Torggatan', 'Hamngatan'];

export function buildScaleSeed(today: string, quizRows: number, houseEmail: string): string[] {
  // The house account may already exist under another id (demo data, a real sign-up): the venues refer
  // to it by e-mail, never by the id inserted here, which is skipped in that case.
  const out: string[] = [insert('users', { id: 'scale-user-house', email: houseEmail, email_verified_at: `${today}T00:00:00.000Z` })];
  const houseId = `(SELECT id FROM users WHERE email = ${sqlValue(houseEmail)})`;
  for (let u = 0; u < 50; u++) out.push(insert('users', { id: `scale-user-${u}`, email: `skala${u}@example.se`, email_verified_at: `${today}T00:00:00.000Z` }));
  const perVenue = 26;
  const venuesNeeded = Math.ceil(quizRows / perVenue);
  const cityCount = Math.max(1, Math.ceil(venuesNeeded / SCALE_VENUES_PER_CITY));
  const cityName = (n: number) => {
    const base = SCALE_CITIES[n % SCALE_CITIES.length]!;
    const round = Math.floor(n / SCALE_CITIES.length);
    return round === 0 ? base : `${base} ${round + 1}`;
  };
  const quizCols =
    '(id, location_id, date, start_time, category, theme, description, quizmaster, team_size, price, is_recurring, recurrence_id, recurrence_pattern, recurrence_days, recurrence_until)';
  const row = (values: Array<string | number | boolean | null>) => `(${values.map(sqlValue).join(', ')})`;
  const venueCols = '(user_id, id, name, slug, city, address, description, phone, website, is_public)';
  const locationCols = '(id, venue_id, name, address, city, city_slug, latitude, longitude)';
  const MUSIC_K = CATEGORY_CYCLE.findIndex(([category, theme]) => category === 'tema' && theme === 'Musik');
  const categories = CATEGORY_CYCLE.map(([category, theme], k) => row([k, category, theme])).join(', ');
  // Statements of SCALE_CHUNK venues each: their venues, their places, and their quiz rows generated by
  // SQLite from one row per venue (a weekly series of up to 26 dates), so 1 000 000 quiz rows are
  // ~20 MB of SQL instead of ~260 MB. Same ids and values as one row each would give.
  const SCALE_CHUNK = 100;
  for (let from = 1; from <= venuesNeeded; from += SCALE_CHUNK) {
    const venueRows: string[] = [];
    const locationRows: string[] = [];
    const seriesRows: string[] = [];
    for (let v = from; v < from + SCALE_CHUNK && v <= venuesNeeded; v++) {
      const cityNo = (v - 1) % cityCount;
      const city = cityName(cityNo);
      const citySlug = slugify(city);
      const owner = v % 3 === 0 ? houseId : sqlValue(`scale-user-${v % 50}`);
      const name = `${SCALE_VENUE_KINDS[v % SCALE_VENUE_KINDS.length]} ${SCALE_VENUE_NAMES[Math.floor(v / SCALE_VENUE_KINDS.length) % SCALE_VENUE_NAMES.length]}`;
      const street = `${SCALE_STREETS[v % SCALE_STREETS.length]} ${(v % 60) + 1}`;
      const venueId = `scale-venue-${v}`;
      const lat = +(55.4 + (((cityNo * 37) % 1000) / 1000) * 12 + (v % 10) * 0.002).toFixed(5);
      const lng = +(11.5 + (((cityNo * 53) % 1000) / 1000) * 11 + (v % 7) * 0.002).toFixed(5);
      const phone = `0${(v % 9) + 1}0-${String(100000 + ((v * 7919) % 900000)).slice(0, 6)}`;
      const description = `${name} i ${city} har quiz varje vecka, gott öl och mat från köket. Boka bord i god tid.`;
      venueRows.push(
        `(${owner}, ${[venueId, name, `${slugify(name)}-${v}`, city, `${street}, ${city}`, description, phone, `https://www.${slugify(name)}-${v}.se`, v % 50 !== 0].map(sqlValue).join(', ')})`,
      );
      locationRows.push(row([`scale-loc-${v}`, venueId, name, street, city, citySlug, lat, lng]));
      const wd = (v % 7) + 1;
      const first = nextWeekdayOnOrAfter(addDays(today, -7), wd);
      const startTime = ['18:00:00', '18:30:00', '19:00:00', '19:30:00', '20:00:00'][v % 5]!;
      const count = Math.min(perVenue, quizRows - (v - 1) * perVenue);
      seriesRows.push(
        row([
          v,
          first,
          startTime,
          QUIZMASTERS[v % QUIZMASTERS.length]!,
          [2, 3, 4, 5, 6, 8][v % 6]!,
          v % 2 ? 0 : 30,
          JSON.stringify([WEEKDAYS[wd - 1]!.name]),
          name,
          count,
        ]),
      );
    }
    out.push(`INSERT OR IGNORE INTO venues ${venueCols} VALUES ${venueRows.join(', ')};`);
    out.push(`INSERT OR IGNORE INTO locations ${locationCols} VALUES ${locationRows.join(', ')};`);
    out.push(
      `WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < ${perVenue - 1}), ` +
        `c(k, category, theme) AS (VALUES ${categories}), ` +
        `s(v, first, start_time, quizmaster, team_size, price, days, name, count) AS (VALUES ${seriesRows.join(', ')}) ` +
        `INSERT OR IGNORE INTO quizzes ${quizCols} ` +
        `SELECT 'scale-q-' || s.v || '-' || i.n, 'scale-loc-' || s.v, date(s.first, '+' || (7 * i.n) || ' days'), s.start_time, c.category, c.theme, ` +
        `CASE WHEN c.theme IS NOT NULL THEN 'Temaquiz: ' || c.theme || '. Sex ronder och final på ' || s.name || '.' ELSE 'Klassiskt pubquiz på ' || s.name || ' med bildrunda och musikrunda.' END, ` +
        `s.quizmaster, s.team_size, s.price, 1, 'scale-series-' || s.v, 'weekly', s.days, NULL ` +
        // Every fifth venue (venue 1 in Stockholm among them) runs a weekly music quiz; the others cycle
        // through the categories — so the quiz filters find something in every town (bench "city + gratis + musik").
        `FROM s JOIN i ON i.n < s.count JOIN c ON c.k = CASE WHEN s.v % 5 = 1 THEN ${MUSIC_K} ELSE (s.v + i.n) % ${CATEGORY_CYCLE.length} END ORDER BY s.v, i.n;`,
    );
  }
  if (venuesNeeded >= 1) out.push(...scaleResults(today));
  return out;
}

/** Issue 46's scale: venue 1's series has a season of SCALE_RESULT_NIGHTS past nights × SCALE_RESULT_TEAMS teams (the bench's results rows). */
export const SCALE_RESULT_NIGHTS = 40;
export const SCALE_RESULT_TEAMS = 30;

function scaleResults(today: string): string[] {
  const digits = '23456789';
  const teams = Array.from({ length: SCALE_RESULT_TEAMS }, (_, t) => ({
    id: `scale-team-${t + 1}`,
    name: `Skallaget ${t + 1}`,
    code: `SK${digits[Math.floor(t / 512) % 8]}${digits[Math.floor(t / 64) % 8]}${digits[Math.floor(t / 8) % 8]}${digits[t % 8]}`,
  }));
  const first = nextWeekdayOnOrAfter(addDays(today, -7), 2);
  const nights = Array.from({ length: SCALE_RESULT_NIGHTS }, (_, k) => ({
    quizId: `scale-past-1-${k + 1}`,
    date: addDays(first, -7 * (SCALE_RESULT_NIGHTS - k)),
  }));
  const stored = nights.map((_, k) => rankScores(teams.map((t, i) => ({ teamId: t.id, score: 60 + ((i * 7 + k * 11) % 30) }))));
  const rows = (table: string, cols: string[], values: Array<Array<string | number | boolean | null>>) =>
    chunks(values, 200).map(
      (part) => `INSERT OR IGNORE INTO ${table} (${cols.join(', ')}) VALUES ${part.map((v) => `(${v.map(sqlValue).join(', ')})`).join(', ')};`,
    );
  const posted = (date: string) => `${date}T21:30:00.000Z`;
  const standings = computeStandings('total', {}, stored);
  return [
    ...rows(
      'teams',
      ['id', 'name', 'name_key', 'slug', 'code'],
      teams.map((t) => [t.id, t.name, teamNameKey(t.name), slugify(t.name), t.code]),
    ),
    ...rows(
      'quizzes',
      ['id', 'location_id', 'date', 'start_time', 'category', 'is_recurring', 'recurrence_id', 'recurrence_pattern', 'recurrence_days'],
      nights.map((n) => [n.quizId, 'scale-loc-1', n.date, '18:30:00', 'allmänbildning', true, 'scale-series-1', 'weekly', JSON.stringify([WEEKDAYS[1]!.name])]),
    ),
    ...rows(
      'result_nights',
      ['quiz_id', 'venue_id', 'location_id', 'series_id', 'date', 'team_count', 'first_posted_at', 'created_at', 'updated_at'],
      nights.map((n) => [
        n.quizId,
        'scale-venue-1',
        'scale-loc-1',
        'scale-series-1',
        n.date,
        SCALE_RESULT_TEAMS,
        posted(n.date),
        posted(n.date),
        posted(n.date),
      ]),
    ),
    ...rows(
      'results',
      ['quiz_id', 'team_id', 'score', 'rank', 'date', 'venue_id', 'location_id'],
      nights.flatMap((n, k) => stored[k]!.map((r) => [n.quizId, r.teamId, r.score, r.rank, n.date, 'scale-venue-1', 'scale-loc-1'])),
    ),
    ...rows(
      'seasons',
      ['id', 'series_id', 'venue_id', 'name', 'start_date', 'end_date', 'preset', 'params'],
      [['scale-season-1', 'scale-series-1', 'scale-venue-1', 'Skalsäsongen', nights[0]!.date, addDays(today, 90), 'total', '{}']],
    ),
    ...rows(
      'season_standings',
      ['season_id', 'team_id', 'team_name', 'team_slug', 'hidden', 'points', 'nights', 'rank', 'position'],
      standings.map((st, i) => {
        const t = teams.find((x) => x.id === st.teamId)!;
        return ['scale-season-1', t.id, t.name, slugify(t.name), false, st.points, st.nights, st.rank, i + 1];
      }),
    ),
    // A league over the same series (issue 46.3: /liga/skalligan), its season's table the same.
    ...rows('leagues', ['id', 'name', 'slug'], [['scale-league-1', 'Skalligan', 'skalligan']]),
    ...rows('league_series', ['league_id', 'series_id', 'consented_at'], [['scale-league-1', 'scale-series-1', posted(nights[0]!.date)]]),
    ...rows(
      'seasons',
      ['id', 'league_id', 'name', 'start_date', 'end_date', 'preset', 'params'],
      [['scale-league-season-1', 'scale-league-1', 'Skalligan', nights[0]!.date, addDays(today, 90), 'total', '{}']],
    ),
    ...rows(
      'season_standings',
      ['season_id', 'team_id', 'team_name', 'team_slug', 'hidden', 'points', 'nights', 'rank', 'position'],
      standings.map((st, i) => {
        const t = teams.find((x) => x.id === st.teamId)!;
        return ['scale-league-season-1', t.id, t.name, slugify(t.name), false, st.points, st.nights, st.rank, i + 1];
      }),
    ),
  ];
}

/** The trigger that recomputes a listing unit on every quiz insert (migration 0005). */
export const QUIZ_INSERT_TRIGGER = 'listing_series_quiz_ai';

const UNIT_COLS =
  'key, recurrence_id, pattern, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, shuffle, place_text, quiz_text, lat, lng, price, team_max, topic, start_min, lang';
const UNIT_UPDATE =
  'recurrence_id = excluded.recurrence_id, pattern = excluded.pattern, location_id = excluded.location_id, city_slug = excluded.city_slug, venue_id = excluded.venue_id, owner_id = excluded.owner_id, is_public = excluded.is_public, last_date = excluded.last_date, days_mask = excluded.days_mask, place_text = excluded.place_text, quiz_text = excluded.quiz_text, lat = excluded.lat, lng = excluded.lng, price = excluded.price, team_max = excluded.team_max, topic = excluded.topic, start_min = excluded.start_min, lang = excluded.lang';
/** The quiz filters of the unit's latest row q (migration 0015, the unknown price of 0030; FILTER_VALUES in scripts/listing-series-triggers.mjs). */
const CAT = "lower(coalesce(q.category, ''))";
const THEME = "lower(trim(coalesce(q.theme, '')))";
const FILTER_VALUES = `coalesce(q.price, -1), q.team_size,
    CASE WHEN ${CAT} IN ('allmänbildning', 'allmänquiz', 'general', 'mixed') THEN 'allmanbildning'
      WHEN ${CAT} IN ('musikquiz', 'musik') OR ${THEME} IN ('musik', 'music') THEN 'musik'
      WHEN ${CAT} IN ('sportquiz', 'sport') OR ${THEME} = 'sport' THEN 'sport'
      WHEN ${CAT} IN ('filmquiz', 'film') OR ${THEME} IN ('film & tv', 'film och tv', 'film', 'tv') THEN 'film-tv'
      WHEN ${CAT} IN ('tema', 'theme') OR ${THEME} != '' THEN 'annat' ELSE NULL END,
    coalesce(CAST(substr(q.start_time, 1, 2) AS INTEGER) * 60 + CAST(substr(q.start_time, 4, 2) AS INTEGER), 1140)`;
/** A place's effective coordinate (migration 0009): its own when it has both, else its town's centre. */
const GEO = (c: 'lat' | 'lng') =>
  `CASE WHEN l.latitude IS NOT NULL AND l.longitude IS NOT NULL THEN l.${c === 'lat' ? 'latitude' : 'longitude'} ELSE (SELECT t.${c} FROM towns t WHERE t.slug = l.city_slug) END`;

/**
 * The listing units of every scale series, computed set-based in one statement: the same row the
 * per-insert trigger computes (scripts/listing-series-triggers.mjs refreshSeries: last date, weekday
 * mask, place text, distinct quiz texts, effective coordinates), for a bulk load with that trigger off.
 * When the triggers gain a column, add it here too: test/integration/scale-seed.test.ts compares every
 * column with what the triggers themselves compute. The FTS indexes follow
 * through their own triggers on listing_series. Series keys are a range of quizzes_recurrence_idx.
 */
export const SCALE_UNITS_REBUILD_SQL = `INSERT INTO listing_series (${UNIT_COLS})
  SELECT s.rid || '@' || s.lid, s.rid, q.recurrence_pattern, q.location_id, l.city_slug, l.venue_id, v.user_id, v.is_public, s.last,
    (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT weekday AS w FROM quizzes WHERE recurrence_id = s.rid AND location_id = s.lid)),
    abs(random() % 2147483648), v.name || ' | ' || l.name,
    (SELECT coalesce(group_concat(t, ' | '), '') FROM (SELECT DISTINCT coalesce(title, '') || ' | ' || coalesce(description, '') || ' | ' || coalesce(theme, '') || ' | ' || coalesce(quizmaster, '') AS t FROM quizzes WHERE recurrence_id = s.rid AND location_id = s.lid)),
    ${GEO('lat')}, ${GEO('lng')}, ${FILTER_VALUES}, q.language
  FROM (SELECT recurrence_id AS rid, location_id AS lid, max(date) AS last FROM quizzes
        WHERE recurrence_id >= 'scale-series-' AND recurrence_id < 'scale-series.' GROUP BY recurrence_id, location_id) s
  JOIN quizzes q ON q.recurrence_id = s.rid AND q.location_id = s.lid AND q.date = s.last
  JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
  WHERE true
  ON CONFLICT (key) DO UPDATE SET ${UNIT_UPDATE};`;

/**
 * A scale seed as a bulk load (issue 19 §3): with the quiz-insert trigger on, every one of N rows
 * recomputes its series from that series' rows (O(rows per series) each, ~29 s per 100 000 rows); off,
 * the rows go in plainly and the units are rebuilt once, set-based. `quizInsertTriggerSql` is the
 * trigger's CREATE statement as the database holds it (sqlite_master), put back at the end. Applied as
 * one batch (wrangler d1 execute --file is one transaction), so a failure leaves the trigger in place.
 */
export function asBulkLoad(statements: string[], quizInsertTriggerSql: string): string[] {
  const create = quizInsertTriggerSql.trim().replace(/;?$/, ';');
  if (!new RegExp(`^CREATE TRIGGER\\s+"?${QUIZ_INSERT_TRIGGER}"?\\s`, 'i').test(create))
    throw new Error(`not the ${QUIZ_INSERT_TRIGGER} trigger: ${create.slice(0, 80)}`);
  return [`DROP TRIGGER IF EXISTS ${QUIZ_INSERT_TRIGGER};`, ...statements, SCALE_UNITS_REBUILD_SQL, create];
}
