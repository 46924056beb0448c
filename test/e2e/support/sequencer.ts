/** vitest.e2e.config.ts `sequence.sequencer`: story files start longest first (./order.ts). */
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { longestFirst, type StoryFacts } from './order';

export class LongestStoryFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byId = new Map(files.map((f) => [f.moduleId, f]));
    const facts = (moduleId: string): StoryFacts => {
      const spec = byId.get(moduleId)!;
      // The key of vitest's results cache (as its BaseSequencer reads it); the duration is in milliseconds.
      const key = `${spec.project.name}:${relative(this.ctx.config.root, moduleId)}`;
      const recorded = this.ctx.cache.getFileTestResults(key);
      const source = readFileSync(moduleId, 'utf8');
      return {
        recordedSeconds: recorded && !recorded.failed && recorded.duration > 0 ? recorded.duration / 1000 : undefined,
        ownApp: /\bstartApp\(/.test(source),
        bytes: statSync(moduleId).size,
      };
    };
    return longestFirst([...byId.keys()], facts).map((id) => byId.get(id)!);
  }
}
