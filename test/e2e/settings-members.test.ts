/**
 * Browser end-to-end test of Settings -> Members: an administrator invites someone through the
 * modal (a bad address is refused under its field first) and copies the link, is refused when
 * demoting the last administrator, promotes and removes a member with confirmation, revokes an
 * invitation; the invited person opens the link in another browser, creates their account and
 * lands in the app; used, withdrawn and expired links show their page; a member sees a
 * not-allowed page; with SMTP set up, the modal and list say whether each email went out.
 * With E2E_SCREENSHOTS=<dir>, saves screenshots of the states there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'kysely'
import type { Browser } from 'playwright-core'
import { addUserToOrganization, createOrganizationWithAdmin } from '../../src/orgs/org.service.ts'
import { startSmtpReceiver, type SmtpReceiver } from '../members/smtp-receiver.ts'
import { ensureWebBuild, launchChromium, pagesOf, shot, signIn, startE2eService, type E2eService } from './harness.ts'

const PASSWORD = 'correct horse battery'

describe('Settings -> Members in the browser', () => {
  let svc: E2eService
  /** A second service that emails invitations through `smtp`: started with the first, in parallel. */
  let mailing: E2eService
  let smtp: SmtpReceiver
  let browser: Browser
  let orgId: string
  const { newPage, serverErrors, pageErrors } = pagesOf(() => browser)

  beforeAll(async () => {
    ensureWebBuild()
    smtp = await startSmtpReceiver()
    ;[svc, mailing, browser] = await Promise.all([startE2eService('pglite'), startE2eService('pglite', { SMTP_URL: smtp.url }), launchChromium()])
    const db = svc.service.app!.db
    ;({ orgId } = await createOrganizationWithAdmin(db, { name: 'Acme Outfitters', adminEmail: 'ada@acme.test', adminPassword: PASSWORD, adminName: 'Ada Admin' }))
    await addUserToOrganization(db, orgId, { email: 'max@acme.test', password: PASSWORD, role: 'member', name: 'Max Member' })
    // Two services, each on an embedded database of its own (cloned from the migrated template), and
    // a browser: under a full suite on two cores that has taken most of a minute.
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await Promise.all([svc?.close(), mailing?.close()])
    await smtp?.close()
  }, 60_000)

  it('lets an administrator invite, change roles and remove; the invited person joins from the link', async () => {
    const page = await newPage()
    await signIn(page, svc.url, 'ada@acme.test', PASSWORD)
    await page.getByRole('group', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click()
    await page.waitForURL(`${svc.url}/app/settings/members`)
    await page.getByRole('heading', { name: 'Members', level: 2 }).waitFor()
    const people = page.getByRole('table', { name: 'Members' })
    await people.getByText('Ada Admin').waitFor()
    await people.getByText('max@acme.test').waitFor()
    await page.getByText('No pending invitations').waitFor()
    await shot(page, 'settings-members-empty-invitations')

    // The last administrator cannot step down.
    await people.getByLabel('Role of Ada Admin').click()
    await page.getByRole('option', { name: 'Member' }).click()
    await page.getByText('The role was not changed').waitFor()
    await page.getByText('only administrator', { exact: false }).waitFor()
    await shot(page, 'settings-members-last-admin')
    expect(await people.getByLabel('Role of Ada Admin').inputValue()).toBe('Administrator')

    // Invite: a bad address first, then a good one; no SMTP here, so the link is shown to copy.
    await page.getByRole('button', { name: 'Invite people' }).first().click()
    const dialog = page.getByRole('dialog')
    await dialog.getByLabel('Email', { exact: true }).fill('nina@')
    await dialog.getByRole('button', { name: 'Send invitation' }).click()
    await dialog.getByText('Enter an email address', { exact: false }).waitFor()
    await dialog.getByLabel('Email', { exact: true }).fill('max@acme.test')
    await dialog.getByRole('button', { name: 'Send invitation' }).click()
    await dialog.getByText('already a member', { exact: false }).waitFor()
    await dialog.getByLabel('Email', { exact: true }).fill('nina@acme.test')
    await dialog.getByRole('radio', { name: 'Administrator' }).click()
    await shot(page, 'settings-members-invite-form')
    await dialog.getByRole('button', { name: 'Send invitation' }).click()
    await dialog.getByText('Send this link to your teammate').waitFor()
    const link = (await dialog.getByLabel('Invitation link', { exact: true }).textContent())!.trim()
    expect(link).toMatch(new RegExp(`^${svc.url}/invite/[0-9a-f-]{36}\\.[A-Za-z0-9_-]{43}$`))
    await shot(page, 'settings-members-invite-link')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'detached' })
    const invitations = page.getByRole('table', { name: 'Pending invitations' })
    await invitations.getByText('nina@acme.test').waitFor()
    await invitations.getByText('Link only').waitFor()
    await invitations.getByText('Invited by Ada Admin', { exact: false }).waitFor()
    expect(await page.content()).not.toContain(link.split('.').pop())

    // Promote Max, then remove him.
    await people.getByLabel('Role of Max Member').click()
    await page.getByRole('option', { name: 'Administrator' }).click()
    await page.waitForFunction(() => (document.querySelector('[aria-label="Role of Max Member"]') as HTMLInputElement | null)?.value === 'Administrator')
    await shot(page, 'settings-members-with-invitation')
    await page.reload()
    expect(await people.getByLabel('Role of Max Member').inputValue()).toBe('Administrator')
    await people.getByRole('button', { name: 'Remove Max Member' }).click()
    const confirm = page.getByRole('dialog', { name: 'Remove Max Member?' })
    await confirm.getByText('loses access', { exact: false }).waitFor()
    await shot(page, 'settings-members-remove-confirm')
    await confirm.getByRole('button', { name: 'Remove member' }).click()
    await confirm.waitFor({ state: 'detached' })
    await people.getByText('max@acme.test').waitFor({ state: 'detached' })

    // Nina opens the link in her own browser and creates her account.
    const nina = await newPage()
    await nina.goto(link)
    await nina.getByRole('heading', { name: 'Join Acme Outfitters' }).waitFor()
    await nina.getByText('nina@acme.test').waitFor()
    await shot(nina, 'invitation-join-new')
    await nina.getByLabel('Your name').fill('Nina Novak')
    await nina.getByLabel('Choose a password').fill(PASSWORD)
    await nina.getByRole('button', { name: 'Create account and join' }).click()
    await nina.waitForURL(/\/app(\/.*)?$/)
    // An administrator now: the Settings group is there.
    await nina.getByRole('group', { name: 'Settings' }).getByRole('link', { name: 'Members' }).waitFor()
    await nina.goto(link)
    await nina.getByText('This invitation has already been used').waitFor()
    await shot(nina, 'invitation-used')
    await nina.close()

    await page.reload()
    await people.getByText('Nina Novak').waitFor()
    await page.getByText('No pending invitations').waitFor()

    // Revoke an invitation; its link then says so.
    await page.getByRole('button', { name: 'Invite people' }).first().click()
    await dialog.getByLabel('Email', { exact: true }).fill('oscar@acme.test')
    await dialog.getByRole('button', { name: 'Send invitation' }).click()
    const oscarLink = (await dialog.getByLabel('Invitation link', { exact: true }).textContent())!.trim()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await invitations.getByRole('button', { name: 'Revoke the invitation of oscar@acme.test' }).click()
    await page.getByRole('dialog', { name: 'Revoke the invitation of oscar@acme.test?' }).getByRole('button', { name: 'Revoke invitation' }).click()
    await page.getByText('No pending invitations').waitFor()
    const visitor = await newPage()
    await visitor.goto(oscarLink)
    await visitor.getByText('This invitation was withdrawn').waitFor()
    await shot(visitor, 'invitation-withdrawn')

    // An expired invitation: listed as expired, "New link" gives a fresh one.
    await page.getByRole('button', { name: 'Invite people' }).first().click()
    await dialog.getByLabel('Email', { exact: true }).fill('petra@acme.test')
    await dialog.getByRole('button', { name: 'Send invitation' }).click()
    const petraLink = (await dialog.getByLabel('Invitation link', { exact: true }).textContent())!.trim()
    await dialog.getByRole('button', { name: 'Done' }).click()
    await sql`UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE email_key = 'petra@acme.test'`.execute(svc.service.app!.db)
    await page.reload()
    await invitations.getByText('Expired').waitFor()
    await shot(page, 'settings-members-expired')
    await visitor.goto(petraLink)
    await visitor.getByText('This invitation has expired').waitFor()
    await shot(visitor, 'invitation-expired')
    await invitations.getByRole('button', { name: 'New link for petra@acme.test' }).click()
    const fresh = page.getByRole('dialog')
    await fresh.getByText('Invitation ready').waitFor()
    const petraFresh = (await fresh.getByLabel('Invitation link', { exact: true }).textContent())!.trim()
    expect(petraFresh).not.toBe(petraLink)
    await fresh.getByRole('button', { name: 'Done' }).click()
    await invitations.getByText('Expired').waitFor({ state: 'detached' })
    await visitor.goto(petraFresh)
    await visitor.getByRole('button', { name: 'Create account and join' }).waitFor()
    await visitor.close()

    // Max, removed earlier, still has his account: his new link asks for its password.
    await page.getByRole('button', { name: 'Invite people' }).first().click()
    await dialog.getByLabel('Email', { exact: true }).fill('max@acme.test')
    await dialog.getByRole('button', { name: 'Send invitation' }).click()
    const maxLink = (await dialog.getByLabel('Invitation link', { exact: true }).textContent())!.trim()
    await dialog.getByRole('button', { name: 'Done' }).click()
    const max = await newPage()
    await max.goto(maxLink)
    await max.getByText('You already have a Cairn account with this email').waitFor()
    await shot(max, 'invitation-join-existing')
    await max.getByLabel('Password').fill('not his password')
    await max.getByRole('button', { name: 'Sign in and join' }).click()
    await max.getByText('That password does not match this account.').waitFor()
    await max.getByLabel('Password').fill(PASSWORD)
    await max.getByRole('button', { name: 'Sign in and join' }).click()
    await max.waitForURL(/\/app(\/.*)?$/)
    await max.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).waitFor()
    await max.close()
    await page.reload()
    await people.getByText('max@acme.test').waitFor()
    await page.close()
  })

  it('shows a member a not-allowed page', async () => {
    await addUserToOrganization(svc.service.app!.db, orgId, { email: 'mia@acme.test', password: PASSWORD, role: 'member', name: 'Mia Member' })
    const page = await newPage()
    await signIn(page, svc.url, 'mia@acme.test', PASSWORD)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Accounts' }).waitFor()
    expect(await page.getByRole('group', { name: 'Settings' }).count()).toBe(0)
    await page.goto(`${svc.url}/app/settings/members`)
    await page.getByText('Only administrators can manage members').waitFor()
    expect(await page.getByRole('button', { name: 'Invite people' }).count()).toBe(0)
    await shot(page, 'settings-members-member')
    await page.close()
  })

  it('emails the invitation when SMTP is set up, and says so when the email fails', async () => {
    await createOrganizationWithAdmin(mailing.service.app!.db, { name: 'Mailing Co', adminEmail: 'ada@mailing.test', adminPassword: PASSWORD, adminName: 'Ada Admin' })
    const page = await newPage()
    await signIn(page, mailing.url, 'ada@mailing.test', PASSWORD)
    await page.goto(`${mailing.url}/app/settings/members`)
    const dialog = page.getByRole('dialog')
    const arriving = smtp.next()
    await page.getByRole('button', { name: 'Invite people' }).first().click()
    await dialog.getByLabel('Email', { exact: true }).fill('ola@mailing.test')
    await dialog.getByRole('button', { name: 'Send invitation' }).click()
    await dialog.getByText('Invitation emailed to ola@mailing.test').waitFor()
    const link = (await dialog.getByLabel('Invitation link', { exact: true }).textContent())!.trim()
    expect((await arriving).text).toContain(link)
    await shot(page, 'settings-members-invite-emailed')
    await dialog.getByRole('button', { name: 'Done' }).click()

    await page.getByRole('button', { name: 'Invite people' }).first().click()
    await dialog.getByLabel('Email', { exact: true }).fill('bounce@mailing.test')
    await dialog.getByRole('button', { name: 'Send invitation' }).click()
    await dialog.getByText('The email could not be sent').waitFor()
    await dialog.getByText('550', { exact: false }).waitFor()
    await shot(page, 'settings-members-invite-email-failed')
    await dialog.getByRole('button', { name: 'Done' }).click()
    const invitations = page.getByRole('table', { name: 'Pending invitations' })
    await invitations.getByText('Emailed', { exact: true }).waitFor()
    await invitations.getByText('Email failed', { exact: true }).waitFor()
    await shot(page, 'settings-members-deliveries')
    await page.close()
  }, 60_000)

  it('saw no 5xx and no page errors', () => {
    expect(serverErrors).toEqual([])
    expect(pageErrors).toEqual([])
  })
})
