export { auditService } from './service';
