import { CommandMap, CommandPattern, ContractError, parseCommandReply, parseCommandRequest } from '@lws/contracts';
import { applyDecorators, CallHandler, ExecutionContext, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { catchError, map, Observable, throwError } from 'rxjs';
import { isInfrastructureFailure, TEMPORARILY_UNAVAILABLE } from './failures';
import { RpcError } from './rpc-errors';

type CommandHandler<P extends CommandPattern> = (
  request: CommandMap[P]['request'],
  ...rest: never[]
) => CommandMap[P]['reply'] | Promise<CommandMap[P]['reply']>;

/** Validates the request before the handler runs and the reply before it leaves the service. */
class CommandContractInterceptor implements NestInterceptor {
  constructor(private readonly pattern: CommandPattern) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const args = context.getArgs();
    try {
      // The handler (and @Payload()) read the same argument array, so they get the parsed request.
      args[0] = parseCommandRequest(this.pattern, args[0]);
    } catch (err) {
      if (err instanceof ContractError) throw new RpcError(400, err.message, { field: err.field });
      throw err;
    }
    return next.handle().pipe(
      map((reply) => {
        try {
          return parseCommandReply(this.pattern, reply);
        } catch (err) {
          // A reply that breaks its contract is a bug in this service (or a field that must not
          // leave it): the caller gets a generic 500 and the details stay in this service's log.
          if (err instanceof ContractError) {
            throw new Error(`Reply to ${this.pattern} breaks its contract: ${err.message}`, { cause: err });
          }
          throw err;
        }
      }),
      // A database or bus that is down is a 503 the caller can retry, not a 500: its transaction
      // rolled back, so nothing was half-written.
      catchError((err: unknown) => throwError(() => (isInfrastructureFailure(err) ? new RpcError(503, TEMPORARILY_UNAVAILABLE) : err))),
    );
  }
}

/**
 * Marks a method as the handler of a command: `@MessagePattern(pattern)` with the request
 * validated against the contract first (a bad one is answered 400 naming the field) and the
 * reply validated before it is sent. The handler's first parameter receives the parsed request.
 */
export function Command<P extends CommandPattern>(pattern: P) {
  const decorate = applyDecorators(MessagePattern(pattern), UseInterceptors(new CommandContractInterceptor(pattern)));
  return <H extends CommandHandler<P>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    decorate(target, key, descriptor);
  };
}
