import { randomBytes } from 'node:crypto';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { createTestContext, type EngineName, type TestContext } from './context.js';
import { writeSealP12 } from './seal-p12.js';

/** A real SMTP listener on loopback that parses every message it accepts. */
export type SmtpSink = {
  url: string;
  messages: ParsedMail[];
  /** SMTP envelope recipients (RCPT TO) of each message, in the order of `messages`. */
  recipients: string[][];
  /** Makes the server refuse recipients matching the pattern (a transport failure). */
  rejectRecipients: (pattern: RegExp | null) => void;
  waitFor: (predicate: (m: ParsedMail) => boolean, timeoutMs?: number) => Promise<ParsedMail>;
  close: () => Promise<void>;
};

/** Starts an SMTP sink on a free loopback port, or on `port` (a server coming back). */
export async function startSmtpSink(options: { port?: number } = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  const recipients: string[][] = [];
  let reject: RegExp | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (reject?.test(address.address)) {
        const err = new Error('Mailbox unavailable') as Error & { responseCode: number };
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          recipients.push(session.envelope.rcptTo.map((r) => r.address));
          messages.push(parsed);
          callback();
        })
        .catch(callback);
    },
  });
  // A client killed mid-session (SIGKILL of a service) resets its connection: the client's end,
  // not a failure of the sink, which keeps serving the others.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    recipients,
    rejectRecipients: (pattern) => {
      reject = pattern;
    },
    waitFor: async (predicate, timeoutMs = 10_000) => {
      const end = Date.now() + timeoutMs;
      while (Date.now() < end) {
        const found = messages.find(predicate);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('no matching e-mail arrived');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A service on `engine` whose e-mail goes to a real SMTP listener, both started before the
 * describe block's tests and closed after them; `env` may build on the listener's URL.
 */
export function useMailingContext(
  engine: EngineName,
  options: {
    listen?: boolean;
    env?: (smtpUrl: string) => Promise<Record<string, string>> | Record<string, string>;
  } = {},
): { ctx: TestContext; smtp: SmtpSink } {
  const fixture = {} as { ctx: TestContext; smtp: SmtpSink };
  beforeAll(async () => {
    fixture.smtp = await startSmtpSink();
    const env = (await options.env?.(fixture.smtp.url)) ?? { SMTP_URL: fixture.smtp.url };
    fixture.ctx = await createTestContext(engine, { listen: options.listen, env });
  });
  afterAll(async () => {
    await fixture.ctx?.close();
    await fixture.smtp?.close();
  });
  return fixture;
}

/**
 * What production needs to start on loopback, mailing `smtpUrl`: a random SECRET_KEY, a seal
 * certificate, and the http: PUBLIC_URL of a test said out loud.
 */
export async function productionEnv(smtpUrl: string): Promise<Record<string, string>> {
  return {
    ESIGN_ENV: 'production',
    SMTP_URL: smtpUrl,
    SECRET_KEY: randomBytes(32).toString('hex'),
    ...(await writeSealP12()),
    ALLOW_INSECURE_PUBLIC_URL: 'true',
  };
}
