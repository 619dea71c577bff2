// The Locations tab shared by the admin and superadmin remotes, imported as
// '@lws/fe-ui/locations' (bundled into each remote, like '@lws/fe-monitor/accounts').
export { LocationsCard, LOCATION_NAME_MAX } from './LocationsCard';
export { parseLocationOptions } from './locations-api';
export type { LocationOption } from './locations-api';
