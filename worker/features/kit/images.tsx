/** @jsxRuntime automatic @jsxImportSource react */
/**
 * The owner kit's Instagram images (issue 48.7), rendered by the share-card pipeline (satori + resvg,
 * share/render.ts): a post (1080 × 1080) and a story (1080 × 1920) of the next quiz. Flexbox and inline styles
 * only; every div with more than one child is `display: flex` (satori's rule). Texts are strings, drawn literally.
 * Colours: look.ts (every pair WCAG AA, unit-tested). Part of the lazy kit renderer (renderer.ts nextQuizImage), which
 * also makes the QR SVG.
 *
 * The "top 3" images (TopThreeImage) show the latest posted night (KitData.night): ranks as posted (ties: 1, 2, 2),
 * teams and scores, with the next quiz and the QR code below.
 */
import type { ReactNode } from 'react';
import { clip, type KitData } from './data';
import { KIT_COLORS as C } from './look';

export const IMAGE_SIZES = { post: { width: 1080, height: 1080 }, story: { width: 1080, height: 1920 } } as const;
export type ImageKind = keyof typeof IMAGE_SIZES;

function Brand({ scale }: { scale: number }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 20 * scale }}>
      <div
        style={{
          width: 72 * scale,
          height: 72 * scale,
          borderRadius: 18 * scale,
          backgroundColor: C.amber,
          color: C.ink,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          fontSize: 50 * scale,
          fontWeight: 700,
        }}
      >
        ?
      </div>
      <div style={{ fontSize: 46 * scale, fontWeight: 700, letterSpacing: -1 }}>Quizkväll</div>
    </div>
  );
}

/** An image's frame: its size, the indigo ground, the padded column that starts with the brand. */
function Frame({ kind, children }: { kind: ImageKind; children: ReactNode }) {
  const story = kind === 'story';
  const { width, height } = IMAGE_SIZES[kind];
  const pad = story ? 90 : 70;
  return (
    <div
      style={{
        width,
        height,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        backgroundColor: C.indigo,
        color: C.white,
        fontFamily: 'Inter',
      }}
    >
      <div style={{ width: width - 2 * pad, height: height - 2 * pad, display: 'flex', flexDirection: 'column', justifyContent: 'space-between' }}>
        <Brand scale={story ? 1.2 : 1} />
        {children}
      </div>
    </div>
  );
}

/** The QR code (an SVG) as an image of `side` pixels. */
function Qr({ svg, side }: { svg: string; side: number }) {
  return (
    <img
      src={`data:image/svg+xml;base64,${btoa(svg)}`}
      width={side}
      height={side}
      alt=""
      style={{ width: side, height: side, flexShrink: 0, borderRadius: 12 }}
    />
  );
}

/** The next quiz: rhythm or date, venue, facts, next dates, the QR code and the tagged venue address. */
export function NextQuizImage({ kind, data, qrSvg }: { kind: ImageKind; data: KitData; qrSvg: string }) {
  const story = kind === 'story';
  const qrSide = story ? 360 : 240;
  const facts = [data.price, data.teamSize, data.language].filter((x): x is string => !!x).join(' · ');
  const dates = data.dates.slice(0, story ? 4 : 2);
  return (
    <Frame kind={kind}>
      <div style={{ display: 'flex', flexDirection: 'column', gap: story ? 28 : 18 }}>
        <div style={{ display: 'flex', fontSize: story ? 44 : 36, color: C.lilac }}>{clip(data.title ?? 'Pubquiz', 40)}</div>
        <div style={{ display: 'flex', fontSize: story ? 100 : 80, fontWeight: 700, lineHeight: 1.05, letterSpacing: -2 }}>{clip(data.when, 40)}</div>
        <div style={{ display: 'flex', fontSize: story ? 64 : 52, fontWeight: 700, color: C.paleAmber, lineHeight: 1.1 }}>{clip(data.venueName, 50)}</div>
        <div style={{ display: 'flex', fontSize: story ? 36 : 30, color: C.lilac }}>{clip(data.place, 70)}</div>
        <div style={{ display: 'flex', fontSize: story ? 40 : 32 }}>{clip(facts, 60)}</div>
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-end', gap: 40 }}>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 12, flex: 1 }}>
          {dates.length > 0 && <div style={{ display: 'flex', fontSize: story ? 36 : 28, color: C.lilac }}>Nästa datum</div>}
          {dates.map((d) => (
            <div key={d} style={{ display: 'flex', fontSize: story ? 40 : 30 }}>
              {d}
            </div>
          ))}
          <div style={{ display: 'flex', fontSize: story ? 32 : 26, color: C.lilac, marginTop: 12 }}>{clip(data.urlText, 100)}</div>
        </div>
        <Qr svg={qrSvg} side={qrSide} />
      </div>
    </Frame>
  );
}

/** The latest night's top 3: date, venue, the ranked rows, then the next quiz, the tagged address and the QR code. */
export function TopThreeImage({ kind, data, qrSvg }: { kind: ImageKind; data: KitData; qrSvg: string }) {
  const story = kind === 'story';
  const qrSide = story ? 320 : 200;
  const rows = data.night?.rows ?? [];
  const rowFont = story ? 60 : rows.length > 3 ? 40 : 48;
  return (
    <Frame kind={kind}>
      <div style={{ display: 'flex', flexDirection: 'column', gap: story ? 20 : 12 }}>
        <div style={{ display: 'flex', fontSize: story ? 44 : 34, color: C.lilac }}>Senaste kvällens topp 3</div>
        <div style={{ display: 'flex', fontSize: story ? 84 : 64, fontWeight: 700, lineHeight: 1.05, letterSpacing: -2 }}>
          {clip(data.night?.date ?? '', 40)}
        </div>
        <div style={{ display: 'flex', fontSize: story ? 56 : 42, fontWeight: 700, color: C.paleAmber, lineHeight: 1.1 }}>{clip(data.venueName, 50)}</div>
      </div>
      <div style={{ display: 'flex', flexDirection: 'column', gap: story ? 36 : 18 }}>
        {rows.map((r) => (
          <div key={`${r.rank}-${r.team}`} style={{ display: 'flex', alignItems: 'center', gap: story ? 32 : 24 }}>
            <div
              style={{
                width: rowFont * 1.5,
                height: rowFont * 1.5,
                borderRadius: rowFont,
                backgroundColor: C.amber,
                color: C.ink,
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                fontSize: rowFont,
                fontWeight: 700,
                flexShrink: 0,
              }}
            >
              {String(r.rank)}
            </div>
            <div style={{ display: 'flex', flex: 1, fontSize: rowFont, fontWeight: 700 }}>{clip(r.team, story ? 22 : 28)}</div>
            <div style={{ display: 'flex', fontSize: rowFont * 0.8, color: C.lilac, flexShrink: 0 }}>{r.score}</div>
          </div>
        ))}
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-end', gap: 40 }}>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 12, flex: 1 }}>
          <div style={{ display: 'flex', fontSize: story ? 36 : 28, color: C.lilac }}>Nästa quiz</div>
          <div style={{ display: 'flex', fontSize: story ? 44 : 34, fontWeight: 700 }}>{clip(data.when, 40)}</div>
          <div style={{ display: 'flex', fontSize: story ? 32 : 26, color: C.lilac, marginTop: 12 }}>{clip(data.urlText, 100)}</div>
        </div>
        <Qr svg={qrSvg} side={qrSide} />
      </div>
    </Frame>
  );
}
