import { defineConfig } from 'vitest/config'
import { testKinds } from './test/helpers/test-kinds.ts'

// Three projects (docs/testing.md): unit (no database), integration (both databases, services,
// child processes) and browser (test/e2e, headless Chromium); `npm test` runs all three, and
// `npx vitest run --project unit` one. Which file is which is read from its imports
// (test/helpers/test-kinds.ts). Databases start from templates migrated once per run
// (test/helpers/global-setup.ts), and the pool stays small: the machine has two cores.
const kinds = testKinds()
const GLOBAL_SETUP = ['test/helpers/global-setup.ts']

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // After each file, the statements the service sent to PostgreSQL must keep Citus's query rule
    // (docs/scale-out.md, Query rules).
    setupFiles: ['test/helpers/citus-statement-check.setup.ts'],
    projects: [
      { test: { name: 'unit', include: kinds.unit } },
      { test: { name: 'integration', include: kinds.integration, globalSetup: GLOBAL_SETUP } },
      { test: { name: 'browser', include: kinds.browser, globalSetup: GLOBAL_SETUP } },
    ],
  },
})
