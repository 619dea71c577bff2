import { BadRequestException, type PipeTransform } from '@nestjs/common';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Endpoint and delivery ids are UUIDs; anything else is a 400 naming the parameter. */
export class UuidPipe implements PipeTransform<string, string> {
  /** The parameter's name, as the 400 names it (a subclass names another). */
  protected readonly field: string = 'id';

  transform(value: string): string {
    if (!UUID.test(value)) throw new BadRequestException({ message: 'Invalid id', field: this.field });
    return value.toLowerCase();
  }
}
