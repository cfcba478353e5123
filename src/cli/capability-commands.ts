/** CLI commands contributed by capabilities (the OAuth server adds `client create`). */
import type { CliCommand } from './main.ts'

export const cliCommandsFromCapabilities: Record<string, CliCommand> = {}
