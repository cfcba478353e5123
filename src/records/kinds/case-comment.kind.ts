import { NAME, type RecordKind } from '../record-kind.ts'

export const caseCommentKind: RecordKind = {
  name: 'case_comment',
  table: 'case_comments',
  path: 'case-comments',
  label: 'Case comment',
  labelPlural: 'Case comments',
  titleFields: ['body'],
  // A comment thread reads oldest first (docs/decisions.md, Pagination).
  order: 'oldest_first',
  fields: [
    // Taken from the URL (POST /cases/{id}/comments); a comment never moves to another case.
    { name: 'case_id', type: 'ref', ref: 'case', label: 'Case', readOnly: true },
    { name: 'body', type: 'text', label: 'Comment', required: true, maxLength: 32_000, search: 'contains' },
    { name: 'is_public', type: 'boolean', label: 'Public', default: false },
    // The signed-in author, set by the service; imports name an author with no account here.
    { name: 'author_user_id', type: 'user', label: 'Author', readOnly: true },
    { name: 'author_name', type: 'string', label: 'Author name', maxLength: NAME },
  ],
}
