// Entry point: Mantine and TanStack Query providers around the router (basename /app).
import '@mantine/core/styles.css'
import '@mantine/charts/styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { MantineProvider } from '@mantine/core'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from 'react-router'
import { ApiError } from './api/client.ts'
import { router } from './router.tsx'
import { theme } from './theme.ts'

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Client errors (404, 403, validation) will not change on retry; network and 5xx might.
      retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
)
