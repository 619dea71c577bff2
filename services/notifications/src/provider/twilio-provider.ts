import { Injectable } from '@nestjs/common';
import twilio from 'twilio';
import { ProviderRateLimitedError, ProviderSettings } from './provider-settings';

/** What became of one request to the provider. */
export type ProviderResult =
  | { ok: true; sid: string; status: string }
  | {
      ok: false;
      transient: boolean;
      code?: number;
      message: string;
      /** The provider answered 429: slow down, for retryAfterMs when it said how long. */
      rateLimited?: { retryAfterMs?: number };
    };

/** The WhatsApp recipient has not opted in to messages from this sender. */
export const WHATSAPP_NOT_OPTED_IN = 63005;

/**
 * Network failures, timeouts, 5xx and 429 may succeed later; any other 4xx (an invalid number,
 * 21211; no WhatsApp opt-in, 63005) will not, so it fails at once. A 429 also says how long the
 * provider asked to be left alone, when it did (Retry-After).
 */
export function classifyProviderError(err: unknown): ProviderResult & { ok: false } {
  if (err instanceof ProviderRateLimitedError) {
    const after = err.retryAfterMs;
    const message = `${err.message || 'Provider answered 429'}${after !== undefined ? ` (retry after ${Math.ceil(after / 1000)} s)` : ''}`;
    return { ok: false, transient: true, code: err.code, message, rateLimited: after !== undefined ? { retryAfterMs: after } : {} };
  }
  if (err instanceof twilio.RestException) {
    const transient = err.status >= 500 || err.status === 429;
    return {
      ok: false,
      transient,
      code: err.code,
      message: err.message || `Provider answered ${err.status}`,
      ...(err.status === 429 ? { rateLimited: {} } : {}),
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { ok: false, transient: true, message: `Provider unreachable: ${message}` };
}

export interface VoiceCall {
  messageId: string;
  to: string;
  timeoutSeconds: number;
}

@Injectable()
export class TwilioProvider {
  constructor(private readonly settings: ProviderSettings) {}

  /** The sender number a channel's messages come from. */
  from(channel: 'sms' | 'whatsapp'): string {
    return channel === 'whatsapp' ? this.settings.whatsappFrom : this.settings.fromNumber;
  }

  async sendMessage(channel: 'sms' | 'whatsapp', messageId: string, to: string, body: string): Promise<ProviderResult> {
    const wa = channel === 'whatsapp';
    try {
      const m = await this.settings.client.messages.create({
        to: wa ? `whatsapp:${to}` : to,
        from: wa ? `whatsapp:${this.settings.whatsappFrom}` : this.settings.fromNumber,
        body,
        statusCallback: this.settings.webhookUrl('message-status', messageId),
      });
      return { ok: true, sid: m.sid, status: m.status };
    } catch (err) {
      return classifyProviderError(err);
    }
  }

  /** Rings for timeoutSeconds; the voice webhook plays the alert and gathers the key press. */
  async placeCall(call: VoiceCall): Promise<ProviderResult> {
    try {
      const c = await this.settings.client.calls.create({
        to: call.to,
        from: this.settings.fromNumber,
        url: this.settings.webhookUrl('voice', call.messageId),
        method: 'POST',
        timeout: call.timeoutSeconds,
        statusCallback: this.settings.webhookUrl('call-status', call.messageId),
        statusCallbackMethod: 'POST',
        statusCallbackEvent: ['completed'],
      });
      return { ok: true, sid: c.sid, status: c.status };
    } catch (err) {
      return classifyProviderError(err);
    }
  }

  /** The call's status as the provider knows it, for calls whose status callback never came. */
  async callStatus(sid: string): Promise<string | undefined> {
    try {
      return (await this.settings.client.calls(sid).fetch()).status;
    } catch {
      return undefined;
    }
  }

  /** How to let a worker's phone receive WhatsApp messages from this sender (shown for 63005). */
  whatsappSetupSteps(): string[] {
    const from = this.settings.whatsappFrom;
    const steps = [
      `On the worker's phone, save ${from} as a contact and open a WhatsApp chat with it.`,
      `Send the sender's join message to ${from} (for the Twilio WhatsApp sandbox: "join <sandbox keyword>", shown in the Twilio Console under Messaging > Try it out > Send a WhatsApp message).`,
      'Wait for the confirmation reply on the phone, then send the test again.',
      'For production, use an approved WhatsApp sender; each recipient must have opted in to its messages.',
    ];
    if (this.settings.fake) {
      steps.push(
        `Embedded mode: the local fake provider stands in for Twilio; opt the number in with POST ${this.settings.fake.url}/_fake/whatsapp-opt-in {"number": "+44..."}.`,
      );
    }
    return steps;
  }
}
