/** @jsxRuntime automatic @jsxImportSource react */
/**
 * The share card (og:image) template, rendered by satori: flexbox and inline styles only, every div
 * with more than one child is `display: flex` (satori's rule). Text is passed as strings, so any
 * venue name is drawn as text, never interpreted.
 */
export interface CardData {
  /** The page's Swedish title, e.g. "Quiz på tisdag i Göteborg". */
  title: string;
  /** Small line above the title (city, "Pubquiz i hela Sverige"). */
  kicker: string;
  /** Up to three upcoming dates, already formatted ("tis 24 nov 19:00 · Puben"). */
  lines: string[];
  /** When there is nothing upcoming. */
  empty?: string;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function ShareCard({ data }: { data: CardData }) {
  const title = clip(data.title, 70);
  return (
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        backgroundColor: '#312e81',
        backgroundImage: 'linear-gradient(135deg, #4338ca 0%, #312e81 60%, #1e1b4b 100%)',
        color: '#ffffff',
        fontFamily: 'Inter',
      }}
    >
      <div style={{ display: 'flex', flexDirection: 'column', justifyContent: 'space-between', width: 1056, height: 502 }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 20 }}>
          <div
            style={{
              width: 64,
              height: 64,
              borderRadius: 16,
              backgroundColor: '#fbbf24',
              color: '#1e1b4b',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              fontSize: 44,
              fontWeight: 700,
            }}
          >
            ?
          </div>
          <div style={{ fontSize: 40, fontWeight: 700, letterSpacing: -1 }}>Quizkväll</div>
        </div>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
          <div style={{ fontSize: 30, color: '#c7d2fe' }}>{clip(data.kicker, 60)}</div>
          <div style={{ fontSize: title.length > 40 ? 60 : 76, fontWeight: 700, lineHeight: 1.1, letterSpacing: -1.5 }}>{title}</div>
        </div>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 10 }}>
          {data.lines.length > 0 ? (
            data.lines.slice(0, 3).map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: satori renders once and never reconciles; two lines can be equal
              <div key={i} style={{ display: 'flex', fontSize: 30, color: i === 0 ? '#fde68a' : '#e0e7ff' }}>
                {clip(line, 64)}
              </div>
            ))
          ) : (
            <div style={{ display: 'flex', fontSize: 30, color: '#e0e7ff' }}>{data.empty ?? 'Hitta nästa quizkväll på quizkvall.se'}</div>
          )}
        </div>
      </div>
    </div>
  );
}
