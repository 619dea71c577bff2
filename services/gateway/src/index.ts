export { startGateway, type GatewayOptions, type RunningGateway } from './app';
export { gatewayConfigShape } from './config';
export { EDGE_BODIES, EDGE_QUERIES } from './common/edge-schemas';
export { bodySchemas, buildOpenApiDocument, documentedRoutes, openApiPath, querySchema } from './openapi/document';
export { ROUTE_DOCS } from './openapi/route-docs';
export { camelCaseKeys } from './common/validation';
