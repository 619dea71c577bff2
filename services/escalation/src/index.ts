export { escalationService } from './service';
