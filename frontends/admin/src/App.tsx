import { Alert, PageStatus, Tabs, TabsContent, TabsList, TabsTrigger, useAuth, useDocumentTitle } from '@lws/fe-ui';
import { CreateUserCard, KiosksCard, WorkerDashboard } from '@lws/fe-ui/accounts';
import { LocationsCard } from '@lws/fe-ui/locations';

const MONITORS = ['admin', 'superadmin'];

/** The admin dashboard. Activity Logs joins these tabs with its feature. */
export default function AdminApp() {
  const { user, loading } = useAuth();
  useDocumentTitle('Admin Dashboard');
  return (
    <div className="lws-page" data-testid="remote-admin">
      <h1 className="lws-page__title">Admin Dashboard</h1>
      {loading ? (
        <PageStatus text="Loading..." />
      ) : user && MONITORS.includes(user.role) ? (
        <Tabs defaultValue="workers">
          <TabsList aria-label="Admin dashboard sections">
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
        </Tabs>
      ) : (
        <Alert variant="error">You don't have permission to access the admin dashboard</Alert>
      )}
    </div>
  );
}
