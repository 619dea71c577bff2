import { startTracing } from '@lws/telemetry';
const tracing = startTracing('shifts');

import { runMain } from '@lws/platform';
import { shiftsService } from './service';

void runMain(shiftsService, tracing);
