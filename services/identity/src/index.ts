export { identityService } from './service';
