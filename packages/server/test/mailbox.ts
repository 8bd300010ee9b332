import { SMTPServer } from 'smtp-server';

/** One message as the receiver got it: its recipients (lower case), the raw text, subject and decoded body. */
export interface ReceivedMail { to: string[]; raw: string; subject: string; text: string }

/** A real SMTP receiver; the server under test sends to it through nodemailer. */
export interface Mailbox {
  url: string;
  /** Every message accepted, in order of arrival (`waitFor` takes the one it returns out). */
  messages: ReceivedMail[];
  /** Messages accepted for `to`. */
  to(address: string): ReceivedMail[];
  waitFor(to: string, match?: RegExp, timeoutMs?: number): Promise<{ subject: string; text: string }>;
  close(): Promise<void>;
}

export interface MailboxOptions {
  /** Listen here instead of on a free port (a test that starts the receiver after the sender). */
  port?: number;
  /** An SMTP reply code refusing a recipient, or undefined to accept it. */
  refuseRecipient?: (address: string) => number | undefined;
  /** An SMTP reply code refusing the next message once its data arrived, or undefined to accept it. */
  refuseMessage?: () => number | undefined;
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const refusal = (code: number) => Object.assign(new Error(code >= 500 ? 'mailbox unavailable' : 'try again later'), { responseCode: code });

export async function startMailbox(options: MailboxOptions = {}): Promise<Mailbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const code = options.refuseRecipient?.(address.address);
      callback(code ? refusal(code) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const code = options.refuseMessage?.();
        if (code) {
          callback(refusal(code));
          return;
        }
        const full = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*)$/m.exec(full)?.[1]?.trim() ?? '';
        const bodyStart = full.indexOf('\r\n\r\n');
        const text = decodeQuotedPrintable(bodyStart >= 0 ? full.slice(bodyStart + 4) : full);
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: full, subject, text });
        callback();
      });
    },
  });
  // A sender that dies mid-connection (the fault tests kill server processes) resets its socket;
  // that is the sender's business, not a failure of the mailbox.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET') throw err;
  });
  const port = await new Promise<number>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to: (address) => messages.filter((m) => m.to.includes(address.toLowerCase())),
    async waitFor(to, match, timeoutMs = 5000) {
      const start = Date.now();
      for (;;) {
        const found = messages.find((m) => m.to.includes(to.toLowerCase()) && (!match || match.test(m.subject + '\n' + m.text)));
        if (found) {
          messages.splice(messages.indexOf(found), 1);
          return { subject: found.subject, text: found.text };
        }
        if (Date.now() - start > timeoutMs) throw new Error(`no mail to ${to} matching ${String(match)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
