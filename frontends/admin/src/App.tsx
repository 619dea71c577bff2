import { MonitorDashboard } from '@lws/fe-monitor/accounts';

/** The admin dashboard: the tabs every monitor shares, Activity Logs among them. */
export default function AdminApp() {
  return (
    <MonitorDashboard
      title="Admin Dashboard"
      testId="remote-admin"
      allowedRoles={['admin', 'superadmin']}
      deniedText="You don't have permission to access the admin dashboard"
    />
  );
}
