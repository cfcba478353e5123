import { descriptionField, NAME, SHORT, type RecordKind } from '../record-kind.ts'
import { PRODUCT_FAMILIES } from './standard-picklists.ts'

export const productKind: RecordKind = {
  name: 'product',
  table: 'products',
  path: 'products',
  label: 'Product',
  labelPlural: 'Products',
  titleFields: ['name'],
  order: 'newest_first',
  fields: [
    { name: 'name', type: 'string', label: 'Name', required: true, maxLength: NAME, search: 'contains', sort: true },
    { name: 'code', type: 'string', label: 'Product code', maxLength: SHORT, search: 'prefix', filter: true },
    descriptionField,
    { name: 'family', type: 'string', label: 'Family', maxLength: SHORT, filter: true, picklist: PRODUCT_FAMILIES },
    { name: 'unit_price', type: 'decimal', label: 'Unit price', sort: true },
    { name: 'currency', type: 'string', label: 'Currency', maxLength: 3, default: 'USD' },
    { name: 'is_active', type: 'boolean', label: 'Active', default: true, filter: true },
  ],
}
