export { locationsService } from './service';
