import { Alert, PageStatus, Tabs, TabsContent, TabsList, TabsTrigger, useAuth, useDocumentTitle } from '@lws/fe-ui';
import { CreateUserCard, KiosksCard, WorkerDashboard } from '@lws/fe-ui/accounts';

/** The super admin dashboard. Its other tools (locations, logs, force clock out, configuration, tests) join these tabs with their features. */
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
          <TabsContent value="kiosks">
            <KiosksCard />
          </TabsContent>
        </Tabs>
      ) : (
        <Alert variant="error">You don't have permission to access the super admin dashboard</Alert>
      )}
    </div>
  );
}
