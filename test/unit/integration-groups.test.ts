/**
 * `npm run test:integration` runs the group files of test/integration/groups/ (partition.ts): this checks that
 * every integration test file runs in exactly one of them, so none can be dropped silently.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GROUP_COUNT, groupFiles, partition, WEIGHT_S } from '../integration/groups/partition';
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

  it('weigh only files that exist (a renamed heavy file would otherwise count as a small one)', () => {
    for (const f of Object.keys(WEIGHT_S)) expect(testFiles, f).toContain(f);
  });
});
