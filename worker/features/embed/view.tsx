/**
 * The embeddable widget (issue 16): a small, self-contained HTML list for an <iframe> on a venue's own
 * site. No script, no external resource, no cookie; styles inline; every link opens Quizkväll in a new
 * tab. Rendered with React on the server (all text escaped).
 */
import { reactServer } from '../../lib/ssr';
import { displayDate, displayPrice, displayTime, categoryBadge } from '../../lib/swedish';
import type { CalendarRow } from '../calendar/service';

export interface EmbedOptions {
  theme: 'light' | 'dark';
  compact: boolean;
}

export interface EmbedData {
  heading: string;
  /** Absolute URL of the page the widget links back to. */
  moreUrl: string;
  moreLabel: string;
  rows: CalendarRow[];
  /** Show the venue name on each row (city widget). */
  showVenue: boolean;
  origin: string;
}

const COLORS = {
  light: { bg: '#ffffff', fg: '#0f172a', muted: '#475569', line: '#e2e8f0', accent: '#4338ca', cancelled: '#b91c1c' },
  dark: { bg: '#0f172a', fg: '#f8fafc', muted: '#cbd5e1', line: '#334155', accent: '#a5b4fc', cancelled: '#fca5a5' },
};

function Widget({ data, opts }: { data: EmbedData; opts: EmbedOptions }) {
  const c = COLORS[opts.theme];
  const pad = opts.compact ? '6px 0' : '10px 0';
  return (
    <main style={{ padding: opts.compact ? 10 : 16 }}>
      <h1 style={{ margin: '0 0 8px', fontSize: opts.compact ? 16 : 20 }}>{data.heading}</h1>
      {data.rows.length === 0 ? (
        <p style={{ color: c.muted, margin: pad }}>Inga inplanerade quiz just nu.</p>
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {data.rows.map((q) => (
            <li key={q.id} style={{ padding: pad, borderTop: `1px solid ${c.line}` }}>
              <a href={`${data.origin}/quiz/${q.location.citySlug}/${q.venue.slug}`} style={{ color: c.fg, textDecoration: 'none' }}>
                <strong style={q.isCancelled ? { textDecoration: 'line-through' } : undefined}>
                  {displayDate(q.date)} kl. {displayTime(q.startTime)}
                </strong>
                {q.isCancelled && <span style={{ color: c.cancelled, fontWeight: 700 }}> Inställt</span>}
                {data.showVenue && <span style={{ display: 'block' }}>{q.venue.name}</span>}
                {!opts.compact && (
                  <span style={{ display: 'block', color: c.muted, fontSize: 14 }}>
                    {q.title ? `${q.title} · ` : ''}
                    {[categoryBadge(q.category, q.theme), displayPrice(q.price)].filter(Boolean).join(' · ')}
                    {q.teamSize ? ` · max ${q.teamSize} per lag` : ''}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      )}
      <p style={{ margin: '10px 0 0', fontSize: 14 }}>
        <a href={data.moreUrl} style={{ color: c.accent, fontWeight: 700 }}>
          {data.moreLabel}
        </a>{' '}
        <span style={{ color: c.muted }}>· Quizkväll</span>
      </p>
    </main>
  );
}

export async function renderEmbed(data: EmbedData, opts: EmbedOptions): Promise<string> {
  const c = COLORS[opts.theme];
  const { renderToStaticMarkup } = await reactServer();
  const body = renderToStaticMarkup(<Widget data={data} opts={opts} />);
  const title = renderToStaticMarkup(<title>{data.heading}</title>);
  return `<!doctype html>
<html lang="sv">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<base target="_blank">
${title}
<style>html,body{margin:0;background:${c.bg};color:${c.fg};font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}a:hover strong,a:focus strong{text-decoration:underline}</style>
</head>
<body>${body}</body>
</html>`;
}
