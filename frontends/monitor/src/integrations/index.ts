// The Integrations tab of the admin and superadmin dashboards. Imported as '@lws/fe-monitor/integrations':
// bundled into each remote that uses it, while components come from the shared '@lws/fe-ui' singleton.
export { IntegrationsTab } from './IntegrationsTab';
export { ApiTokensCard, EXPIRY_DAYS, SCOPE_TEXT } from './ApiTokensCard';
export { API_TOKENS_KEY, apiTokenStatus, fetchApiTokens, parseApiTokens, parseCreatedApiToken } from './api-tokens-api';
export type { ApiToken, ApiTokenStatus } from './api-tokens-api';
