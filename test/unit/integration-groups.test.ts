/**
 * `npm run test:integration` runs the group files of test/integration/groups/ (partition.ts): this checks that
 * every integration test file runs in exactly one of them, so none can be dropped silently.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSeconds } from '../integration/groups/durations-reporter';
import { DEFAULT_WEIGHT_S, GROUP_COUNT, groupFiles, partition } from '../integration/groups/partition';
import { testFilesUnder } from '../test-files';

const root = join(import.meta.dirname, '..', 'integration');
const groupsDir = join(root, 'groups');

const testFiles = testFilesUnder(root);

describe('integration groups', () => {
  it('put every integration test file in exactly one group, and every group has files', () => {
    expect(testFiles.length).toBeGreaterThan(50);
    const groups = partition(testFiles);
    expect(groups).toHaveLength(GROUP_COUNT);
    for (const g of groups) expect(g.length).toBeGreaterThan(0);
    const placed = groups.flat();
    expect([...placed].sort()).toEqual(testFiles);
    expect(new Set(placed).size).toBe(placed.length);
    for (let n = 1; n <= GROUP_COUNT; n++) expect(groupFiles(testFiles, n)).toEqual(groups[n - 1]);
  });

  it('have one group file per group, each running its own number, and nothing else matching the tier', () => {
    const groupFileNames = readdirSync(groupsDir)
      .filter((f) => f.endsWith('.group.ts'))
      .sort();
    expect(groupFileNames).toEqual(Array.from({ length: GROUP_COUNT }, (_, i) => `${i + 1}.group.ts`).sort());
    for (let n = 1; n <= GROUP_COUNT; n++) {
      expect(readFileSync(join(groupsDir, `${n}.group.ts`), 'utf8')).toMatch(new RegExp(`\\brunGroup\\(${n}\\)`));
    }
    // The groups load the files through this pattern (relative to test/integration/groups/): all of test/integration.
    expect(readFileSync(join(groupsDir, 'run-group.ts'), 'utf8')).toContain("import.meta.glob('../**/*.test.ts')");
    const config = readFileSync(join(import.meta.dirname, '..', '..', 'vitest.config.ts'), 'utf8');
    expect(config).toContain("['test/integration/groups/*.group.ts']");
  });

  it('hold no module mocks: a group loads each module once for all its files, so a vi.mock would leak or miss', () => {
    for (const f of testFiles) expect(readFileSync(join(root, f), 'utf8'), f).not.toMatch(/\bvi\.(mock|doMock|unmock|resetModules)\(/);
  });

  it('balance by the weights they are given: heaviest first into the emptiest group; unknown files split evenly', () => {
    const w = (f: string) => ({ 'a.test.ts': 50, 'b.test.ts': 30, 'c.test.ts': 25 })[f] ?? DEFAULT_WEIGHT_S;
    expect(partition(['c.test.ts', 'a.test.ts', 'b.test.ts', 'd.test.ts'], 2, w)).toEqual([
      ['a.test.ts', 'd.test.ts'],
      ['b.test.ts', 'c.test.ts'],
    ]);
    const even = partition(['w.test.ts', 'x.test.ts', 'y.test.ts', 'z.test.ts'], 2, () => DEFAULT_WEIGHT_S);
    expect(even.map((g) => g.length)).toEqual([2, 2]);
  });

  it('learn each file’s time from the run itself: the group modules’ top-level suites are the files', () => {
    const test = (ms: number) => ({ diagnostic: () => ({ duration: ms }) });
    const suite = (name: string, ms: number[]) => ({ name, children: { allTests: () => ms.map(test).values() } });
    const mod = (moduleId: string, suites: ReturnType<typeof suite>[]) => ({ moduleId, children: { suites: () => suites.values() } });
    const modules = [
      mod('/r/test/integration/groups/1.group.ts', [suite('listing.test.ts', [1200, 800]), suite('security/fuzz.test.ts', [40_000])]),
      mod('/r/test/integration/listing.test.ts', [suite('not a group', [5])]),
    ];
    expect(fileSeconds(modules as never)).toEqual({ 'listing.test.ts': 2, 'security/fuzz.test.ts': 40 });
  });
});
