import { startTracing } from '@lws/telemetry';
const tracing = startTracing('escalation');

import { runMain } from '@lws/platform';
import { escalationService } from './service';

void runMain(escalationService, tracing);
