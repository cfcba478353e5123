// The Mantine theme of the web app.
import { createTheme, Select } from '@mantine/core'

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    // Mount the options list only while open: a hidden listbox labelled like its input would
    // otherwise make the field's label match two elements (screen readers and tests).
    Select: Select.extend({ defaultProps: { comboboxProps: { keepMounted: false } } }),
  },
})
