/**
 * Shared harness of the browser end-to-end tests: a real listening service on a free port (built by
 * test/helpers/test-app.ts on a fresh migrated database of either kind), headless Chromium, and a
 * recorder of every 5xx the browser saw.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import type { RunningService } from '../../src/runtime.ts'
import type { TargetName } from '../helpers/databases.ts'
import { startTestApp } from '../helpers/test-app.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Builds web/dist when it is missing (npm test already does it when stale). */
export function ensureWebBuild(): void {
  if (!fs.existsSync(path.join(ROOT, 'web/dist/index.html'))) {
    execFileSync(process.execPath, ['scripts/build-web-if-stale.ts'], { cwd: ROOT, stdio: 'inherit' })
  }
}

export interface E2eService {
  service: RunningService
  url: string
  close(): Promise<void>
}

/** A fresh service whose PUBLIC_URL is exactly the address the browser uses (cookies, Origin checks). */
export async function startE2eService(target: TargetName, extraEnv: Record<string, string> = {}): Promise<E2eService> {
  const built = await startTestApp({ database: target, listen: true, env: extraEnv })
  const service: RunningService = { app: built.app, database: built.tdb!.database, url: built.url!, close: () => built.close() }
  return { service, url: service.url, close: service.close }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS })
}

/** Collects every response with status >= 500, and page errors, seen by the context. */
export function watchFailures(context: BrowserContext): { serverErrors: string[]; pageErrors: string[]; watch(page: Page): void } {
  const serverErrors: string[] = []
  const pageErrors: string[] = []
  context.on('response', (res) => {
    if (res.status() >= 500) serverErrors.push(`${res.status()} ${res.request().method()} ${res.url()}`)
  })
  return {
    serverErrors,
    pageErrors,
    watch(page) {
      page.on('pageerror', (err) => pageErrors.push(err.message))
    },
  }
}

/** Fills the server-rendered first-run form of a fresh service and waits for the app. */
export async function completeFirstRun(page: Page, baseUrl: string, who: { org: string; name: string; email: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/setup`)
  await page.getByLabel('Organization name', { exact: true }).fill(who.org)
  await page.getByLabel('Your name', { exact: true }).fill(who.name)
  await page.getByLabel('Email', { exact: true }).fill(who.email)
  await page.getByLabel('Password', { exact: true }).fill(who.password)
  await page.getByRole('button', { name: 'Create organization' }).click()
  await page.waitForURL(`${baseUrl}/app`)
}

/** Signs in through the server-rendered /sign-in form and waits for the app. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`)
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL(/\/app(\/.*)?$/)
}

/** POSTs JSON to the API with the browser's session cookie and the session's CSRF token. */
export async function apiPost(page: Page, baseUrl: string, apiPath: string, body: unknown): Promise<{ status: number; json: any }> {
  const me = await page.request.get(`${baseUrl}/api/v1/me`)
  if (!me.ok()) throw new Error(`GET /me: ${me.status()}`)
  const csrf = ((await me.json()) as { csrf_token: string }).csrf_token
  const res = await page.request.post(`${baseUrl}/api/v1${apiPath}`, { data: body, headers: { 'x-csrf-token': csrf, origin: baseUrl } })
  return { status: res.status(), json: res.status() === 204 ? null : await res.json() }
}

/** With E2E_SCREENSHOTS=<dir>, saves a full-page screenshot there (after transitions settle). */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS
  if (!dir) return
  fs.mkdirSync(dir, { recursive: true })
  await page.waitForTimeout(300)
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true })
}

export interface E2eWorld {
  svc: E2eService
  browser: Browser
  context: BrowserContext
  page: Page
  failures: ReturnType<typeof watchFailures>
}

/**
 * One service, one browser and one page for a whole test file, closed after it; read the world
 * inside tests (`world.page`). Call inside a describe.
 */
export function browserPerFile(target: TargetName): E2eWorld {
  const world = {} as E2eWorld
  beforeAll(async () => {
    ensureWebBuild()
    ;[world.svc, world.browser] = await Promise.all([startE2eService(target), launchChromium()])
    world.context = await world.browser.newContext({ viewport: { width: 1280, height: 900 } })
    world.context.setDefaultTimeout(15_000)
    world.failures = watchFailures(world.context)
    world.page = await world.context.newPage()
    world.failures.watch(world.page)
  })
  afterAll(async () => {
    await world.browser?.close()
    await world.svc?.close()
  })
  return world
}

/** Pages each in a fresh context (own cookies: another person), whose 5xx answers and page errors are collected for the suite's final check. */
export function pagesOf(browser: () => Browser): { newPage(): Promise<Page>; serverErrors: string[]; pageErrors: string[] } {
  const serverErrors: string[] = []
  const pageErrors: string[] = []
  return {
    serverErrors,
    pageErrors,
    async newPage() {
      const context = await browser().newContext({ viewport: { width: 1360, height: 900 } })
      context.setDefaultTimeout(15_000)
      const failures = watchFailures(context)
      const page = await context.newPage()
      failures.watch(page)
      page.on('close', () => {
        serverErrors.push(...failures.serverErrors)
        pageErrors.push(...failures.pageErrors)
      })
      return page
    },
  }
}
