import SCIMMY from 'scimmy';
import { guarded, type ResourceHandlers, type ScimContext } from './scim-context';

/** Where the gateway serves SCIM; resources' meta.location is under it (made absolute per request). */
export const SCIM_BASE_PATH = '/scim/v2';

/** The most resources one list answers (ServiceProviderConfig filter.maxResults). */
export const MAX_RESULTS = 200;

let declared = false;

/** The handlers scimmy holds for a type: each call goes to the ones the request's context carries. */
function delegate(of: (ctx: ScimContext) => ResourceHandlers) {
  return {
    egress: (resource: SCIMMY.Types.Resource, ctx: ScimContext) => guarded(ctx, () => of(ctx).egress(resource, ctx)),
    ingress: (resource: SCIMMY.Types.Resource, data: Record<string, unknown>, ctx: ScimContext) =>
      guarded(ctx, () => of(ctx).ingress(resource, data, ctx)),
    degress: (resource: SCIMMY.Types.Resource, ctx: ScimContext) => guarded(ctx, () => of(ctx).degress(resource, ctx)),
  };
}

/**
 * Declares what LWS offers to scimmy, once per process (its registry is process-wide): Users (with
 * the enterprise extension, accepted and not kept) and Groups, the ServiceProviderConfig, and the
 * base path of every resource's location.
 */
export function declareScimResources(): void {
  if (declared) return;
  declared = true;
  SCIMMY.Config.set({
    patch: true,
    filter: { supported: true, maxResults: MAX_RESULTS },
    bulk: false,
    changePassword: false,
    sort: false,
    etag: false,
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: "A token LWS's superadmin creates for the provisioning client (Authorization: Bearer <token>)",
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
      },
    ],
  });
  SCIMMY.Resources.declare(SCIMMY.Resources.User, {
    basepath: SCIM_BASE_PATH,
    extensions: [{ schema: SCIMMY.Schemas.EnterpriseUser, required: false }],
    ...delegate((ctx) => ctx.handlers.users),
  });
  SCIMMY.Resources.declare(SCIMMY.Resources.Group, { basepath: SCIM_BASE_PATH, ...delegate((ctx) => ctx.handlers.groups) });
  SCIMMY.Resources.ResourceType.basepath(SCIM_BASE_PATH);
  SCIMMY.Resources.Schema.basepath(SCIM_BASE_PATH);
  SCIMMY.Resources.ServiceProviderConfig.basepath(SCIM_BASE_PATH);
}
