/** The event catalogue, for the web app and anyone else who names event types (no server machinery). */
export { EVENT_CATALOGUE, EVENT_NAMES, TEST_EVENT, type EventEntity } from './event-catalogue.ts'
