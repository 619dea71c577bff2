import { startTracing } from '@lws/telemetry';
const tracing = startTracing('audit');

import { runMain } from '@lws/platform';
import { auditService } from './service';

void runMain(auditService, tracing);
