// The location list's data, read by the worker (start a shift), the monitors' Locations tab (in
// '@lws/fe-monitor') and the superadmin's screens; imported as '@lws/fe-ui/locations'.
export { parseLocationOptions } from './locations-api';
export type { LocationOption } from './locations-api';
