import { Alert, PageStatus, Tabs, TabsContent, TabsList, TabsTrigger, useAuth, useDocumentTitle } from '@lws/fe-ui';
import { CreateUserCard, KiosksCard, WorkerDashboard } from '@lws/fe-ui/accounts';
import { LocationsCard } from '@lws/fe-ui/locations';
import { ForceClockOutCard } from './force-clock-out/ForceClockOutCard';

/** The super admin dashboard. Its other tools (logs, configuration, tests) join these tabs with their features. */
export default function SuperadminApp() {
  const { user, loading } = useAuth();
  useDocumentTitle('Super Admin Dashboard');
  return (
    <div className="lws-page" data-testid="remote-superadmin">
      <h1 className="lws-page__title">Super Admin Dashboard</h1>
      {loading ? (
        <PageStatus text="Loading..." />
      ) : user?.role === 'superadmin' ? (
        <Tabs defaultValue="workers">
          <TabsList aria-label="Super admin dashboard sections">
            <TabsTrigger value="workers" data-testid="tab-workers">
              Worker Dashboard
            </TabsTrigger>
            <TabsTrigger value="create-user" data-testid="tab-create-user">
              Create User
            </TabsTrigger>
            <TabsTrigger value="locations" data-testid="tab-locations">
              Locations
            </TabsTrigger>
            <TabsTrigger value="kiosks" data-testid="tab-kiosks">
              Kiosks
            </TabsTrigger>
            <TabsTrigger value="force-clock-out" data-testid="tab-force-clock-out">
              Force Clock Out
            </TabsTrigger>
          </TabsList>
          <TabsContent value="workers">
            <WorkerDashboard />
          </TabsContent>
          <TabsContent value="create-user">
            <CreateUserCard />
          </TabsContent>
          <TabsContent value="locations">
            <LocationsCard />
          </TabsContent>
          <TabsContent value="kiosks">
            <KiosksCard />
          </TabsContent>
          <TabsContent value="force-clock-out">
            <ForceClockOutCard />
          </TabsContent>
        </Tabs>
      ) : (
        <Alert variant="error">You don't have permission to access the super admin dashboard</Alert>
      )}
    </div>
  );
}
