import { startTracing } from '@lws/telemetry';
const tracing = startTracing('identity');

import { runMain } from '@lws/platform';
import { identityService } from './service';

void runMain(identityService, tracing);
