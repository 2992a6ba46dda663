/** Reads `read` every 100 ms until it answers something, for at most 15 s; fails naming `what` it waited for. */
export async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Waited 15 s for ${what}`);
}

export interface Mail {
  subject: string;
  destination: { to: string[] };
  body: { html: string; text: string };
}

/** When this test file began (each file loads this module afresh), a second early. */
const FILE_START_MS = Date.now() - 1000;
/** The same, in the SES emulator's whole seconds. */
const FILE_START = Math.floor(FILE_START_MS / 1000);

/**
 * The e-mails the local SES mailbox received since this test file began. Without `since` (epoch seconds) the emulator
 * answers every e-mail of the run in one JSON, and a test polling it late in a run read them all ten times a second.
 */
export async function emailsOf<T extends object = Mail>(sesUrl: string): Promise<T[]> {
  const response = await fetch(`${sesUrl}/store?since=${FILE_START}`);
  if (!response.ok) throw new Error(`The SES emulator answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { emails: T[] }).emails;
}

/** The e-mails to `address` since this test file began. */
export const emailsTo = async <T extends { destination: { to: string[] } } = Mail>(sesUrl: string, address: string): Promise<T[]> =>
  (await emailsOf<T>(sesUrl)).filter((e) => e.destination.to.includes(address));

/** The first e-mail the local SES mailbox at `sesUrl` holds for `address`, waited for. */
export const mailTo = (sesUrl: string, address: string): Promise<Mail> =>
  until(async () => (await emailsTo(sesUrl, address))[0], `an e-mail to ${address}`);

/**
 * What the local outbox received since this test file began (SMS, WhatsApp, webhooks, events, chat messages), by its
 * `since`: the outbox lists everything a run sent otherwise.
 */
export async function outboxOf<T extends object>(outboxUrl: string): Promise<T[]> {
  const response = await fetch(`${outboxUrl}/messages?since=${new Date(FILE_START_MS).toISOString()}`);
  if (!response.ok) throw new Error(`The outbox answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T[];
}
