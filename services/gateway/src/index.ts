export { startGateway, type GatewayOptions, type RunningGateway } from './app';
export { gatewayConfigShape } from './config';
