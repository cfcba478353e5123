import { defineConfig } from 'vitest/config'

// One PGlite costs 300-700 MB and 1-3 s to create, so files share one per file (see test/helpers)
// and run in a small pool: the machine has two cores.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'tools/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // After each file, the statements the service sent to PostgreSQL must keep Citus's query rule
    // (docs/scale-out.md, Query rules).
    setupFiles: ['test/helpers/citus-statement-check.setup.ts'],
  },
})
