import { defineConfig } from 'vitest/config';

/** Pure unit tests beside the code (rules without I/O), run in Node. */
export default defineConfig({
  test: {
    include: ['worker/**/*.test.ts', 'web/**/*.test.ts', 'web/**/*.test.tsx', 'test/unit/**/*.test.ts'],
    environment: 'node',
  },
});
