import { MonitorDashboard } from '@lws/fe-monitor/accounts';
import { useT } from '@lws/fe-ui';

/** The admin dashboard: the tabs every monitor shares, Activity Logs among them. */
export default function AdminApp() {
  const t = useT();
  return (
    <MonitorDashboard
      title={t('Admin Dashboard')}
      testId="remote-admin"
      allowedRoles={['admin', 'superadmin']}
      deniedText={t("You don't have permission to access the admin dashboard")}
    />
  );
}
