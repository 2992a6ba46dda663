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

/** The first e-mail the local SES mailbox at `sesUrl` holds for `address`, waited for. */
export const mailTo = (sesUrl: string, address: string): Promise<Mail> =>
  until(async () => {
    const { emails } = (await (await fetch(`${sesUrl}/store`)).json()) as { emails: Mail[] };
    return emails.find((e) => e.destination.to.includes(address));
  }, `an e-mail to ${address}`);
