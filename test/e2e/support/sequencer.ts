/** vitest.e2e.config.ts `sequence.sequencer`: story files start longest first by a measured table (./order.ts). */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { longestFirst } from './order';

const storiesDir = new URL('..', import.meta.url).pathname;
const underStories = (spec: TestSpecification) => relative(storiesDir, spec.moduleId).split('\\').join('/');

export class LongestStoryFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byPath = new Map(files.map((f) => [underStories(f), f]));
    return longestFirst([...byPath.keys()]).map((p) => byPath.get(p)!);
  }
}
