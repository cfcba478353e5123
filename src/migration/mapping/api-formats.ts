/**
 * The REST API's own format checks (ajv-formats' full mode, as src/http/validation.ts installs
 * them), for the converters: a value the import writes into a column must be one the API accepts
 * back, or the imported record could not be saved unchanged through the API.
 */
import formats from 'ajv-formats/dist/formats.js'

const full = formats.fullFormats
const email = full.email as RegExp
const uri = full.uri as (s: string) => boolean

export function isApiEmail(s: string): boolean {
  return email.test(s)
}

/** A web address as record.schemas.ts asks for one: format `uri` and an http(s) scheme written in lower case. */
export function isApiWebUrl(s: string): boolean {
  return /^https?:\/\//.test(s) && uri(s)
}
