import { ApiTokensCard } from './ApiTokensCard';
import { WebhooksCard } from './WebhooksCard';

/** The Integrations tab of the admin and superadmin dashboards: how other systems reach LWS. */
export function IntegrationsTab() {
  return (
    <div className="lws-page" data-testid="integrations">
      <ApiTokensCard />
      <WebhooksCard />
    </div>
  );
}
