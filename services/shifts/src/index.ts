export { shiftsService } from './service';
