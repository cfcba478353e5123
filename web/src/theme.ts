// The Mantine theme of the web app. Its type and colours are the brand's (src/shared/brand.ts),
// which the server-rendered pages share.
import { createTheme, Select } from '@mantine/core'
import { FONT_FAMILY } from '../../src/web-contracts.ts'

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  fontFamily: FONT_FAMILY,
  headings: { fontFamily: FONT_FAMILY, fontWeight: '650' },
  components: {
    // Mount the options list only while open: a hidden listbox labelled like its input would
    // otherwise make the field's label match two elements (screen readers and tests).
    Select: Select.extend({ defaultProps: { comboboxProps: { keepMounted: false } } }),
  },
})
