import type { ReactNode } from 'react';
// From the shared singleton, so the shell's auth provider is the one read here.
import { Alert, PageStatus, Tabs, TabsContent, TabsList, TabsTrigger, useAuth, useDocumentTitle, useT } from '@lws/fe-ui';
import { LocationsCard } from '../locations/LocationsCard';
import { AlarmReportCard } from '../reports';
import { ActivityLogsCard } from '../activity/ActivityLogsCard';
import { IntegrationsTab } from '../integrations/IntegrationsTab';
import { CreateUserCard } from './CreateUserCard';
import { KiosksCard } from './KiosksCard';
import { WorkerDashboard } from './WorkerDashboard';

export interface ExtraTab {
  value: string;
  label: string;
  content: ReactNode;
}

interface MonitorDashboardProps {
  /** The page's title, in the language shown (the caller's `t()`), as are `deniedText` and the extra tabs' labels. */
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
  const t = useT();
  useDocumentTitle(title);
  const tabs: ExtraTab[] = [
    { value: 'workers', label: t('Worker Dashboard'), content: <WorkerDashboard /> },
    { value: 'create-user', label: t('Create User'), content: <CreateUserCard /> },
    { value: 'locations', label: t('Locations'), content: <LocationsCard /> },
    { value: 'activity', label: t('Activity Logs'), content: <ActivityLogsCard /> },
    { value: 'kiosks', label: t('Kiosks'), content: <KiosksCard /> },
    { value: 'reports', label: t('Reports'), content: <AlarmReportCard /> },
    { value: 'integrations', label: t('Integrations'), content: <IntegrationsTab /> },
    ...extraTabs,
  ];
  return (
    <div className="lws-page" data-testid={testId}>
      <h1 className="lws-page__title">{title}</h1>
      {loading ? (
        <PageStatus text={t('Loading...')} />
      ) : user && allowedRoles.includes(user.role) ? (
        <Tabs defaultValue="workers">
          <TabsList aria-label={t('{{title}} sections', { title })}>
            {tabs.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value} data-testid={`tab-${tab.value}`}>
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {tabs.map((tab) => (
            <TabsContent key={tab.value} value={tab.value}>
              {tab.content}
            </TabsContent>
          ))}
        </Tabs>
      ) : (
        <Alert variant="error">{deniedText}</Alert>
      )}
    </div>
  );
}
