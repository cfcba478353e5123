// Owns generated Case, CaseComment, Task and Event values: cases under contacts (and the
// contact's account), ordered comment threads (a comment's CreatedDate grows with its position
// in the thread; every fifth case has none), and activities linked through polymorphic
// WhoId (Contact/Lead) and WhatId (Account/Opportunity/Case).
import type { Fns, GenCtx } from './gen-context.ts'
import { COMMENTS, DAY, HOSTILE, longText, pickOf, sfDate, sfDateTime, SUBJECTS } from './gen-util.ts'
import { CASE_STATUSES } from '../schema/dsl.ts'
import { recordTypes } from '../schema/custom.ts'

const CS = 5, CC = 8, T = 9, E = 10

export function caseFns(g: GenCtx): Fns {
  const rts = recordTypes(g.pod, 'Case')
  const contact = (i: number) => g.caseContact.parentOf(i)
  const status = (i: number) => pickOf(CASE_STATUSES, g.r(CS, i, 1))
  return {
    ...g.audit('Case', CS),
    CaseNumber: (i) => String(i + 1).padStart(8, '0'),
    ContactId: (i) => (g.r(CS, i, 2) % 250 === 3 ? g.orphanId('Contact', i) : g.id('Contact', contact(i))),
    AccountId: (i) => g.id('Account', g.contactAccount.parentOf(contact(i))),
    ParentId: (i) => (i > 0 && g.r(CS, i, 3) % 40 === 0 ? g.id('Case', i - 1) : null),
    RecordTypeId: (i) => rts[g.r(CS, i, 4) % 10 === 0 ? 1 : 0].id,
    SuppliedEmail: (i) => (g.r(CS, i, 5) % 6 ? null : `webform${i}@example.com`),
    Type: (i) => pickOf(['Mechanical', 'Electrical', 'Electronic', 'Structural', 'Other', null], g.r(CS, i, 6)),
    Status: status,
    Reason: (i) => pickOf(['Installation', 'Performance', 'Breakdown', 'Feedback', 'Other', null], g.r(CS, i, 7)),
    Origin: (i) => pickOf(['Phone', 'Email', 'Web'], g.r(CS, i, 8)),
    Subject: (i) => (g.r(CS, i, 9) % 89 === 0 ? pickOf(HOSTILE, g.r(CS, i, 10)) : pickOf(SUBJECTS, g.r(CS, i, 9))),
    Priority: (i) => pickOf(['High', 'Medium', 'Low'], g.r(CS, i, 11)),
    Description: (i) => (g.r(CS, i, 12) % 500 === 0 ? longText(32000) : `Customer reports: ${pickOf(SUBJECTS, g.r(CS, i, 9)).toLowerCase()}.\r\nSteps tried: restart.`),
    IsClosed: (i) => status(i) === 'Closed',
    ClosedDate: (i) => (status(i) === 'Closed' ? sfDateTime(g.createdMs('Case', i) + (1 + (g.r(CS, i, 13) % 20)) * DAY) : null),
    IsEscalated: (i) => status(i) === 'Escalated',
    SLA_Breached__c: (i) => status(i) !== 'Closed' && g.r(CS, i, 14) % 3 === 0,
    Engineering_Ticket__c: (i) => (g.r(CS, i, 15) % 5 ? null : `ENG-${g.r(CS, i, 16) % 100000}`),
  }
}

export function caseCommentFns(g: GenCtx): Fns {
  const created = (j: number) => {
    const c = g.commentCase.parentOf(j)
    const [lo] = g.commentCase.range(c)
    // Thread order: the k-th comment of a case is k hours (+ jitter) after the case.
    return g.createdMs('Case', c) + (j - lo + 1) * 3_600_000 + (g.r(CC, j, 1) % 600_000)
  }
  return {
    ...g.audit('CaseComment', CC, false),
    CreatedDate: (j) => sfDateTime(created(j)),
    LastModifiedDate: (j) => sfDateTime(created(j)),
    SystemModstamp: (j) => sfDateTime(created(j)),
    ParentId: (j) => g.id('Case', g.commentCase.parentOf(j)),
    IsPublished: (j) => g.r(CC, j, 2) % 3 !== 0,
    CommentBody: (j) => (g.r(CC, j, 3) % 301 === 0 ? longText(4000) : g.r(CC, j, 3) % 67 === 1 ? pickOf(HOSTILE, g.r(CC, j, 4)) : pickOf(COMMENTS, g.r(CC, j, 3))),
  }
}

function activity(g: GenCtx, code: number, obj: 'Task' | 'Event'): Fns {
  const who = (i: number): string | null => {
    const r = g.r(code, i, 1)
    if (r % 7 === 0) return null
    if (r % 3 === 2) return g.id('Lead', (r >>> 4) % g.live.Lead)
    return r % 300 === 1 ? g.orphanId('Contact', i) : g.id('Contact', (r >>> 4) % g.live.Contact)
  }
  const what = (i: number): string | null => {
    const r = g.r(code, i, 2)
    switch (r % 5) {
      case 0: return null
      case 1: case 2: return g.id('Account', (r >>> 4) % g.live.Account)
      case 3: return g.id('Opportunity', (r >>> 4) % g.live.Opportunity)
      default: return g.id('Case', (r >>> 4) % g.live.Case)
    }
  }
  return {
    ...g.audit(obj, code),
    WhoId: who,
    WhatId: what,
    ActivityDate: (i) => sfDate(g.createdMs(obj, i) + (g.r(code, i, 3) % 30) * DAY),
    Description: (i) => (g.r(code, i, 4) % 4 ? null : 'Discussed renewal options.\nFollow up next week.'),
    AccountId: (i) => {
      const w = what(i)
      return w && w.startsWith('001') ? w : null
    },
    IsPrivate: () => false,
  }
}

export function taskFns(g: GenCtx): Fns {
  const status = (i: number) => pickOf(['Not Started', 'In Progress', 'Completed', 'Completed', 'Deferred'], g.r(T, i, 10))
  return {
    ...activity(g, T, 'Task'),
    Subject: (i) => pickOf(['Call', 'Send Letter', 'Send Quote', 'Other', 'Email: Re: your ticket'], g.r(T, i, 11)),
    Status: status,
    Priority: (i) => pickOf(['High', 'Normal', 'Normal', 'Low'], g.r(T, i, 12)),
    IsHighPriority: (i) => g.r(T, i, 12) % 4 === 0,
    IsClosed: (i) => status(i) === 'Completed',
    TaskSubtype: (i) => pickOf(['Task', 'Email', 'Call'], g.r(T, i, 13)),
    CallDurationInSeconds: (i) => (g.r(T, i, 13) % 3 === 2 ? g.r(T, i, 14) % 3600 : null),
  }
}

export function eventFns(g: GenCtx): Fns {
  const start = (i: number) => g.createdMs('Event', i) + (1 + (g.r(E, i, 10) % 20)) * DAY
  const minutes = (i: number) => pickOf([30, 60, 90, 1440], g.r(E, i, 11))
  return {
    ...activity(g, E, 'Event'),
    Subject: (i) => pickOf(['Meeting', 'Call', 'Demo', 'Onsite visit', 'Lunch'], g.r(E, i, 12)),
    Location: (i) => pickOf(['Zoom', 'HQ', 'Customer site', null], g.r(E, i, 13)),
    IsAllDayEvent: (i) => minutes(i) === 1440,
    ActivityDateTime: (i) => sfDateTime(start(i)),
    ActivityDate: (i) => sfDate(start(i)),
    StartDateTime: (i) => sfDateTime(start(i)),
    EndDateTime: (i) => sfDateTime(start(i) + minutes(i) * 60_000),
    DurationInMinutes: minutes,
    ShowAs: () => 'Busy',
  }
}
