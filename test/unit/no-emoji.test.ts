/**
 * Issue 44.9: the UI draws its symbols with the site's SVG icon set (web/components/ui/icons.ts), never an emoji: an
 * emoji renders as a box where the device lacks the glyph, in another style on every platform, and a screen reader
 * reads its Unicode name ("star") into a button's name. This scan fails on any emoji in the browser code's text.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/** The browser's code and static files, and the server-rendered pages' own markup. */
const DIRS = ['web', 'worker/features/pages', 'worker/lib/link-page.ts'];
const TEXT_FILE = /\.(tsx?|m?js|html|css|json|webmanifest)$/;

function files(path: string): string[] {
  const abs = join(ROOT, path);
  if (!statSync(abs).isDirectory()) return [path];
  return readdirSync(abs).flatMap((name) => (name === 'node_modules' ? [] : files(join(path, name))));
}

/** Emoji: pictographs shown as emoji (U+1F000 and up, dingbats, misc. symbols) and the emoji presentation selector. */
const EMOJI = /[\u{1F000}-\u{1FAFF}\u{2600}-\u{27BF}\u{2B00}-\u{2BFF}]|\u{FE0F}/u;

/** Code without comments: an arrow or a symbol in a doc comment is not UI text. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

function emojiLines(text: string): string[] {
  return withoutComments(text)
    .split('\n')
    .filter((line) => EMOJI.test(line))
    .map((line) => line.trim());
}

describe('no emoji in the UI (issue 44.9)', () => {
  it('finds none in web/ or the server-rendered pages', () => {
    const hits = DIRS.flatMap(files)
      .filter((f) => TEXT_FILE.test(f) && !/\.test\.tsx?$/.test(f))
      .flatMap((f) => emojiLines(readFileSync(join(ROOT, f), 'utf8')).map((line) => `${relative(ROOT, join(ROOT, f))}: ${line}`));
    expect(hits).toEqual([]);
  });

  it('the scan sees an emoji in text and JSX, not in a comment, and lets Swedish letters and icons through', () => {
    expect(emojiLines("const a = '⭐ Premium Utvald';")).toHaveLength(1);
    expect(emojiLines('<p>Klart ✅</p>')).toHaveLength(1);
    expect(emojiLines('<p>🍺 Quiz</p>')).toHaveLength(1);
    expect(emojiLines('// ⭐ in a comment\n/* 🍺 */')).toEqual([]);
    expect(emojiLines("const b = 'Åsa, Ödeshög – 19:00 · <Star />';")).toEqual([]);
  });
});
