// The Locations tab of the admin and superadmin dashboards.
export { LocationsCard, LOCATION_NAME_MAX } from './LocationsCard';
