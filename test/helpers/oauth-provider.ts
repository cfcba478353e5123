/**
 * An MCP host's OAuth client side kept in memory (the SDK's OAuthClientProvider): it registers
 * dynamically unless given client information, and records the authorization URL it was sent to.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'

export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed
  saved?: OAuthTokens
  verifier = ''
  authorizationUrl?: URL
  readonly redirectUrl = 'http://127.0.0.1:33418/callback'
  constructor(client?: OAuthClientInformationMixed) {
    this.client = client
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'MCP SDK test host', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }
  }
  state() {
    return 'sdk-state'
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL): void | Promise<void> {
    this.authorizationUrl = url
  }
  saveCodeVerifier(v: string) {
    this.verifier = v
  }
  codeVerifier() {
    return this.verifier
  }
}
