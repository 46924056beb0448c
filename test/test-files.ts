/** The `*.test.ts` files under `dir`, as "/"-separated paths relative to it, sorted (unit tests of the tiers' file tables). */
import { readdirSync } from 'node:fs';

export function testFilesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split('\\').join('/'))
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
}
