/** One dispatched Server-Sent Events message. */
export interface SseMessage {
  /** 'message' when the server named no type, as EventSource does. */
  event: string;
  data: string;
  /** The last event id as of this message (ids carry over to following messages). */
  lastEventId: string;
}

/**
 * The text/event-stream format (WHATWG HTML, "Server-sent events": interpreting an event stream),
 * fed in chunks as they arrive. Comments (the server's `: ping` heartbeats) are skipped here; the
 * caller sees them only as bytes that arrived.
 */
export class SseParser {
  private buffer = '';
  private pendingCr = false;
  private eventType = '';
  private data: string[] = [];
  private hasData = false;
  private idBuffer: string;
  /** The `retry:` the server asked for, in ms, when it sent one. */
  retryMs: number | null = null;

  constructor(
    private readonly onMessage: (message: SseMessage) => void,
    /** Carried over from the previous connection, as the browser's EventSource does. */
    public lastEventId = '',
  ) {
    this.idBuffer = lastEventId;
  }

  push(chunk: string): void {
    let text = chunk;
    // A CRLF may be split across chunks: the CR already ended the line, so the LF is dropped.
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(this.buffer.slice(start, i));
      if (c === '\r') {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === '\n') i++;
        } else {
          this.pendingCr = true;
        }
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        this.hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.idBuffer = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
  }

  private dispatch(): void {
    this.lastEventId = this.idBuffer;
    const event = this.eventType || 'message';
    const { hasData } = this;
    const data = this.data.join('\n');
    this.eventType = '';
    this.data = [];
    this.hasData = false;
    if (hasData) this.onMessage({ event, data, lastEventId: this.lastEventId });
  }
}
