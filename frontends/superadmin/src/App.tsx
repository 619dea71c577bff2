import { MonitorDashboard } from '@lws/fe-ui/accounts';
import { ForceClockOutCard } from './force-clock-out/ForceClockOutCard';

/** The super admin dashboard. Its other tools (logs, configuration, tests) join these tabs with their features. */
export default function SuperadminApp() {
  return (
    <MonitorDashboard
      title="Super Admin Dashboard"
      testId="remote-superadmin"
      allowedRoles={['superadmin']}
      deniedText="You don't have permission to access the super admin dashboard"
      extraTabs={[{ value: 'force-clock-out', label: 'Force Clock Out', content: <ForceClockOutCard /> }]}
    />
  );
}
