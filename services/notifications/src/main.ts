import { startTracing } from '@lws/telemetry';
const tracing = startTracing('notifications');

import { runMain } from '@lws/platform';
import { notificationsService } from './service';

void runMain(notificationsService, tracing);
