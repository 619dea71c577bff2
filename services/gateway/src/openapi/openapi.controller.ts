import { Controller, Get, Header, Inject, NotFoundException, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../common/session.guard';
import { DOCS_HTML, REDOC_BUNDLE, redocBundle, START_JS } from './docs-page';

/** The OpenAPI document, as JSON text: the build's file, or generated once at start. */
export const OPENAPI_DOCUMENT = Symbol('OPENAPI_DOCUMENT');

/**
 * The API's reference for the people and machines that integrate with LWS: the document and a
 * page that renders it, both open to anyone (they say what the API takes, never anyone's data).
 */
@Controller('api')
export class OpenApiController {
  constructor(@Inject(OPENAPI_DOCUMENT) private readonly document: string) {}

  @Public()
  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  openapi(): string {
    return this.document;
  }

  @Public()
  @Get('docs')
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(): string {
    return DOCS_HTML;
  }

  @Public()
  @Get('docs/:asset')
  asset(@Param('asset') asset: string, @Res() res: Response): void {
    // Revalidated on each visit (the ETag makes that a 304) rather than kept: the URL carries no version.
    res.setHeader('Cache-Control', 'no-cache');
    if (asset === 'start.js') {
      res.type('text/javascript').send(START_JS);
      return;
    }
    const bundle = asset === REDOC_BUNDLE ? redocBundle() : undefined;
    if (!bundle) throw new NotFoundException({ message: 'Not found' });
    res.type('text/javascript').send(bundle);
  }
}
