import { SendWhatsAppMessageCommand } from '@aws-sdk/client-socialmessaging';

/** A template message to one number, as End User Messaging Social takes it (the surveys' and the case alert's). */
export interface WhatsAppTemplate {
  to: string;
  phoneNumberId: string;
  template: string;
  language: string;
  /** The template's body parameters, in order. */
  parameters: string[];
}

/** The one writing of Meta's template message: the survey senders and the case alert both send it. */
export function whatsAppCommand(message: WhatsAppTemplate): SendWhatsAppMessageCommand {
  const body = {
    messaging_product: 'whatsapp',
    to: message.to,
    type: 'template',
    template: {
      name: message.template,
      language: { code: message.language },
      components: [{ type: 'body', parameters: message.parameters.map((text) => ({ type: 'text', text })) }],
    },
  };
  return new SendWhatsAppMessageCommand({
    originationPhoneNumberId: message.phoneNumberId,
    message: new TextEncoder().encode(JSON.stringify(body)),
    metaApiVersion: 'v20.0',
  });
}
