import type { ReactNode } from 'react';
// From the shared singleton, so the shell's auth provider is the one read here.
import { Alert, PageStatus, Tabs, TabsContent, TabsList, TabsTrigger, useAuth, useDocumentTitle } from '@lws/fe-ui';
import { LocationsCard } from '../locations/LocationsCard';
import { AlarmReportCard } from '../reports';
import { ActivityLogsCard } from '../activity/ActivityLogsCard';
import { CreateUserCard } from './CreateUserCard';
import { KiosksCard } from './KiosksCard';
import { WorkerDashboard } from './WorkerDashboard';

export interface ExtraTab {
  value: string;
  label: string;
  content: ReactNode;
}

interface MonitorDashboardProps {
  title: string;
  /** Page root test id, e.g. remote-admin. */
  testId: string;
  allowedRoles: readonly string[];
  deniedText: string;
  /** Tabs only this dashboard has, after the shared ones. */
  extraTabs?: ExtraTab[];
}

/** The tabs every monitor shares (admin and superadmin); each dashboard adds its own after them. */
export function MonitorDashboard({ title, testId, allowedRoles, deniedText, extraTabs = [] }: MonitorDashboardProps) {
  const { user, loading } = useAuth();
  useDocumentTitle(title);
  const tabs: ExtraTab[] = [
    { value: 'workers', label: 'Worker Dashboard', content: <WorkerDashboard /> },
    { value: 'create-user', label: 'Create User', content: <CreateUserCard /> },
    { value: 'locations', label: 'Locations', content: <LocationsCard /> },
    { value: 'activity', label: 'Activity Logs', content: <ActivityLogsCard /> },
    { value: 'kiosks', label: 'Kiosks', content: <KiosksCard /> },
    { value: 'reports', label: 'Reports', content: <AlarmReportCard /> },
    ...extraTabs,
  ];
  return (
    <div className="lws-page" data-testid={testId}>
      <h1 className="lws-page__title">{title}</h1>
      {loading ? (
        <PageStatus text="Loading..." />
      ) : user && allowedRoles.includes(user.role) ? (
        <Tabs defaultValue="workers">
          <TabsList aria-label={`${title} sections`}>
            {tabs.map((t) => (
              <TabsTrigger key={t.value} value={t.value} data-testid={`tab-${t.value}`}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {tabs.map((t) => (
            <TabsContent key={t.value} value={t.value}>
              {t.content}
            </TabsContent>
          ))}
        </Tabs>
      ) : (
        <Alert variant="error">{deniedText}</Alert>
      )}
    </div>
  );
}
