import { MonitorDashboard } from '@lws/fe-monitor/accounts';
import { useT } from '@lws/fe-ui';
import { DeadLettersCard } from './dead-letters/DeadLettersCard';
import { ForceClockOutCard } from './force-clock-out/ForceClockOutCard';
import { SmsTestPanel } from './sms-test/SmsTestPanel';
import { SystemConfigCard } from './system-config/SystemConfigCard';
import { SystemTestingCard } from './system-testing/SystemTestingCard';
import { ImportCard } from './import/ImportCard';
import { ScimTokensCard } from './sign-in/ScimTokensCard';
import { SsoSettingsCard } from './sign-in/SsoSettingsCard';
import { TeamsCard } from './teams/TeamsCard';
import { TestAccountDashboard } from './test-account/TestAccountDashboard';

/** The super admin dashboard: the monitors' tabs, then the superadmin's own tools in the spec's order. */
export default function SuperadminApp() {
  const t = useT();
  return (
    <MonitorDashboard
      title={t('Super Admin Dashboard')}
      testId="remote-superadmin"
      allowedRoles={['superadmin']}
      deniedText={t("You don't have permission to access the super admin dashboard")}
      extraTabs={[
        { value: 'teams', label: t('Teams'), content: <TeamsCard /> },
        { value: 'import', label: t('Import'), content: <ImportCard /> },
        {
          value: 'sign-in',
          label: t('Sign-in'),
          content: (
            <div className="lws-page">
              <SsoSettingsCard />
              <ScimTokensCard />
            </div>
          ),
        },
        { value: 'force-clock-out', label: t('Force Clock Out'), content: <ForceClockOutCard /> },
        { value: 'system-config', label: t('System Config'), content: <SystemConfigCard /> },
        { value: 'system-testing', label: t('System Testing'), content: <SystemTestingCard /> },
        { value: 'test-account', label: t('Test Account'), content: <TestAccountDashboard /> },
        { value: 'sms-test', label: t('SMS Test Panel'), content: <SmsTestPanel /> },
        { value: 'dead-letters', label: t('Dead Letters'), content: <DeadLettersCard /> },
      ]}
    />
  );
}
