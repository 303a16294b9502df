import { defineConfig } from 'vitest/config';

// Unit tests run in Node against the TypeScript sources; end-to-end tests drive Debian Chromium
// against the built browser host (npm test builds first), so they run one file at a time, after the unit tests.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/security/**/*.test.ts'],
          exclude: ['tests/security/**/*.e2e.test.ts'],
          sequence: { groupOrder: 0 },
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts', 'tests/security/**/*.e2e.test.ts'],
          // After the unit tests, one file at a time: browser timing checks should not compete for the 2 cores.
          sequence: { groupOrder: 1 },
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
