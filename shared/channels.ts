/**
 * The survey channels, and the sources an answer can come from. One record per channel; every list of channels
 * derives from it (the journey's picklist, the dispatch message, the rating sources, the link encoding, the address
 * rule, quiet hours, the sender). Adding a channel: the README's "How do I...". It sits on the ground floor,
 * pure data, so that tenant settings, which name channels, import it without importing surveys.
 */
export interface ChannelRecord {
  /**
   * The byte a signed survey link carries for the channel. NEVER change or reuse one: links already sent decode by
   * it. A new channel takes the next unused code, whatever its place in the list.
   */
  linkCode: number;
  /** Which of the customer's addresses the channel reaches. */
  contact: 'phone' | 'email';
  /** Whether the tenant's quiet hours hold the channel's attempts. */
  quietHours: boolean;
  /** The RatingSource code of an answer that came through the channel (1, 2, 4 and 7 are the reference API's). */
  ratingSource: number;
  /** Whether a journey may hand the channel's attempts to the tenant's chatbot. */
  handOff: boolean;
  /**
   * The key of the `Senders` port that sends it (`shared/surveys/ports.ts`); its words are built beside the sender
   * in `shared/surveys/delivery.ts` from `shared/surveys/compose.ts`. null: it is only ever handed to the chatbot.
   */
  sender: 'email' | 'sms' | 'whatsapp' | null;
  /** How messages about the channel name it. */
  label: string;
}

/** In the order the API lists them (error messages name them so); the order carries no meaning otherwise. */
export const CHANNEL_RECORDS = {
  whatsapp: { linkCode: 0, contact: 'phone', quietHours: true, ratingSource: 7, handOff: true, sender: 'whatsapp', label: 'WhatsApp' },
  sms: { linkCode: 1, contact: 'phone', quietHours: true, ratingSource: 2, handOff: false, sender: 'sms', label: 'SMS' },
  email: { linkCode: 2, contact: 'email', quietHours: false, ratingSource: 1, handOff: false, sender: 'email', label: 'e-mail' },
  ura: { linkCode: 3, contact: 'phone', quietHours: true, ratingSource: 4, handOff: true, sender: null, label: 'voice' },
} as const satisfies Record<string, ChannelRecord>;

export type Channel = keyof typeof CHANNEL_RECORDS;
type Records = typeof CHANNEL_RECORDS;

export const CHANNELS: readonly Channel[] = Object.keys(CHANNEL_RECORDS) as Channel[];
/** Channels a journey may hand to the tenant's chatbot. */
export const HAND_OFF_CHANNELS = CHANNELS.filter((c) => CHANNEL_RECORDS[c].handOff) as readonly HandOffChannel[];
export type HandOffChannel = { [C in Channel]: Records[C]['handOff'] extends true ? C : never }[Channel];

/** The channels' rating source codes, by channel name. */
const CHANNEL_SOURCES = Object.fromEntries(CHANNELS.map((c) => [c, CHANNEL_RECORDS[c].ratingSource])) as {
  readonly [C in Channel]: Records[C]['ratingSource'];
};

/** The channel a link's code names, if any. */
const BY_LINK_CODE = new Map(CHANNELS.map((c) => [CHANNEL_RECORDS[c].linkCode as number, c]));
export const linkCodeOf = (channel: Channel): number => CHANNEL_RECORDS[channel].linkCode;
export const channelOfLinkCode = (code: number): Channel | undefined => BY_LINK_CODE.get(code);

/** The address rule: the customer's address a channel reaches (an e-mail for e-mail, else a phone), or null. */
export const addressFor = (channel: Channel, contacts: { phone: string | null; email: string | null }): string | null =>
  contacts[CHANNEL_RECORDS[channel].contact];

/** Whether quiet hours hold the channel (everything but e-mail, and the chatbot hand-offs of those). */
export const heldByQuietHours = (channel: Channel): boolean => CHANNEL_RECORDS[channel].quietHours;

/** Where an answer came from. 1, 2, 4 and 7 are the reference API's codes; the others are ours and do not collide. */
const OTHER_SOURCES = {
  push: 3,
  facebook: 5,
  tablet: 6,
  widget: 8,
  qrcode: 9,
  employee: 10,
  chatbot: 11,
  workplace: 12,
  portals: 13,
  /** A rating sent with the transaction itself. */
  api: 14,
  /** A walk-in customer's answer through a store's printed QR code (shared/in-store/). */
  qr: 15,
  /** An answer on a store's tablet at the exit. */
  kiosk: 16,
} as const;
/** Every answer source: the channels' codes from their records, and the others; listed in code order. */
export const RATING_SOURCES = Object.fromEntries(
  Object.entries({ ...CHANNEL_SOURCES, ...OTHER_SOURCES }).sort(([, a], [, b]) => a - b),
) as typeof CHANNEL_SOURCES & typeof OTHER_SOURCES;
export type SourceName = keyof typeof RATING_SOURCES;
