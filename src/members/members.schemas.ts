/**
 * JSON Schemas of the members and invitations API (docs/members.md). Titles name the OpenAPI
 * components (Member, MemberPage, Invitation, InvitationCreated...).
 */
import { pageSchemaOf, uuidSchema } from '../http/schemas.ts'

export const roleSchema = { type: 'string', enum: ['admin', 'member'], description: 'admin: manages members, invitations and settings; member: works with records.' } as const

export const memberSchema = {
  title: 'Member',
  type: 'object',
  properties: {
    user_id: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    role: roleSchema,
    joined_at: { type: 'string' },
  },
  required: ['user_id', 'email', 'name', 'role', 'joined_at'],
} as const

export const memberPageSchema = pageSchemaOf(memberSchema, 'MemberPage')

export const memberParams = {
  type: 'object',
  additionalProperties: false,
  properties: { user_id: uuidSchema },
  required: ['user_id'],
} as const

export const memberPatchBody = {
  title: 'MemberUpdate',
  type: 'object',
  additionalProperties: false,
  properties: { role: roleSchema },
  required: ['role'],
} as const

const emailStatus = {
  type: 'string',
  enum: ['not_configured', 'sending', 'sent', 'failed'],
  description: 'not_configured: no SMTP server, share the link yourself; sending: under way when last seen; sent: the SMTP server accepted it; failed: see email_error.',
} as const

const invitationProperties = {
  id: { type: 'string' },
  email: { type: 'string' },
  role: roleSchema,
  status: { type: 'string', enum: ['pending', 'expired'] },
  invited_by: {
    type: ['object', 'null'],
    properties: { user_id: { type: 'string' }, name: { type: 'string' } },
    required: ['user_id', 'name'],
    description: 'Null when that person has since been deleted.',
  },
  created_at: { type: 'string' },
  expires_at: { type: 'string' },
  email_status: emailStatus,
  email_error: { type: ['string', 'null'] },
} as const
const invitationRequired = ['id', 'email', 'role', 'status', 'invited_by', 'created_at', 'expires_at', 'email_status', 'email_error'] as const

export const invitationSchema = { title: 'Invitation', type: 'object', properties: invitationProperties, required: invitationRequired } as const

export const invitationCreatedSchema = {
  title: 'InvitationCreated',
  type: 'object',
  properties: {
    ...invitationProperties,
    invitation_url: { type: 'string', description: 'The single-use link; in this answer only (only its hash is stored).' },
  },
  required: [...invitationRequired, 'invitation_url'],
} as const

export const invitationPageSchema = pageSchemaOf(invitationSchema, 'InvitationPage')

export const invitationCreateBody = {
  title: 'InvitationCreate',
  type: 'object',
  additionalProperties: false,
  properties: { email: { type: 'string', minLength: 1, maxLength: 320 }, role: roleSchema },
  required: ['email', 'role'],
} as const

export const invitationParams = {
  type: 'object',
  additionalProperties: false,
  properties: { id: uuidSchema },
  required: ['id'],
} as const
