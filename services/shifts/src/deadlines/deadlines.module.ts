import { Module } from '@nestjs/common';
import { WorkersModule } from '../workers/workers.module';
import { DeadlinesController } from './deadlines.controller';
import { DeadlinesService } from './deadlines.service';

/** The superadmin's simulate and reset tools: a deadline moved without a check-in. */
@Module({ imports: [WorkersModule], controllers: [DeadlinesController], providers: [DeadlinesService] })
export class DeadlinesModule {}
