import { SetMetadata } from '@nestjs/common';
import type { ApiScope } from '@lws/schemas';

export const TOKEN_SCOPE = 'lws:token-scope';

/**
 * The scope an API token needs to call this route. Without it the route is for people only:
 * a token is refused there (403) whatever its scopes, so a new route is closed to machines until
 * someone decides otherwise. The OpenAPI document lists it as the route's bearer security.
 */
export const TokenScope = (scope: ApiScope) => SetMetadata(TOKEN_SCOPE, scope);
