// The route table of the web app, mounted under /app.
import { createBrowserRouter, Navigate } from 'react-router'
import { AppLayout } from './shell/AppLayout.tsx'
import { HomePage } from './features/home/HomePage.tsx'
import { RecordListPage } from './features/records/RecordListPage.tsx'
import { RecordPage } from './features/records/RecordPage.tsx'
import { CreateRecordPage, EditRecordPage } from './features/records/RecordFormPages.tsx'
import { ApiClientsPage } from './features/settings/ApiClientsPage.tsx'
import { CustomFieldsPage } from './features/settings/fields/CustomFieldsPage.tsx'
import { WebhooksPage } from './features/webhooks/WebhooksPage.tsx'
import { WebhookPage } from './features/webhooks/WebhookPage.tsx'
import { MembersPage } from './features/members/MembersPage.tsx'
import { NotFoundPage } from './components/NotFoundPage.tsx'
import { MigrationsPage } from './features/migration/MigrationsPage.tsx'
import { NewMigrationPage } from './features/migration/NewMigrationPage.tsx'
import { MigrationWizardPage } from './features/migration/MigrationWizardPage.tsx'
import { PipelineBoardPage } from './features/pipeline/PipelineBoardPage.tsx'
import { ReportsPage } from './features/reports/ReportsPage.tsx'
import { EventLogPage } from './features/events/EventLogPage.tsx'
import { OperationsPage } from './features/operations/OperationsPage.tsx'
import { OperationPage } from './features/operations/OperationPage.tsx'
import { ImportPage } from './features/imports/ImportPage.tsx'

export const router = createBrowserRouter(
  [
    {
      path: '/',
      element: <AppLayout />,
      children: [
        { index: true, element: <HomePage /> },
        { path: 'settings', element: <Navigate to="/settings/members" replace /> },
        { path: 'settings/members', element: <MembersPage /> },
        { path: 'settings/api', element: <ApiClientsPage /> },
        { path: 'settings/webhooks', element: <WebhooksPage /> },
        { path: 'settings/fields', element: <CustomFieldsPage /> },
        { path: 'settings/webhooks/:id', element: <WebhookPage /> },
        { path: 'migration', element: <MigrationsPage /> },
        { path: 'migration/new', element: <NewMigrationPage /> },
        { path: 'migration/:id', element: <MigrationWizardPage /> },
        { path: 'pipeline', element: <PipelineBoardPage />, handle: { fullWidth: true } },
        { path: 'reports', element: <ReportsPage />, handle: { fullWidth: true } },
        { path: 'events', element: <EventLogPage /> },
        { path: 'operations', element: <OperationsPage /> },
        { path: 'operations/:id', element: <OperationPage /> },
        { path: 'imports/:id', element: <ImportPage /> },
        { path: ':kindPath', element: <RecordListPage /> },
        { path: ':kindPath/new', element: <CreateRecordPage /> },
        { path: ':kindPath/:id', element: <RecordPage /> },
        { path: ':kindPath/:id/edit', element: <EditRecordPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/app' },
)
