/**
 * Whether a JSON document holds `amount` as a value anywhere, as a number or as numeric text
 * ("9999.00"). Tests that check an amount was redacted ask this instead of searching the text:
 * ids and timestamps are hex and digits, and one in a few hundred bodies holds "9999" by chance.
 */
export function jsonHoldsAmount(body: string, amount: number): boolean {
  const holds = (value: unknown): boolean => {
    if (typeof value === 'number') return value === amount
    if (typeof value === 'string') return value.trim() !== '' && Number(value) === amount
    if (Array.isArray(value)) return value.some(holds)
    if (value && typeof value === 'object') return Object.values(value).some(holds)
    return false
  }
  return holds(JSON.parse(body))
}
