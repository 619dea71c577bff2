import { startTracing } from '@lws/telemetry';
const tracing = startTracing('locations');

import { runMain } from '@lws/platform';
import { locationsService } from './service';

void runMain(locationsService, tracing);
