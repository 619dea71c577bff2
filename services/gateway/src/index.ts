export { startGateway, type GatewayOptions, type RunningGateway } from './app';
export { gatewayConfigShape } from './config';
export { EDGE_BODIES, EDGE_QUERIES } from './common/edge-schemas';
