import type { CaseMessage } from '../cases/message.js';
import { sendMessage } from './sqs.js';

/** Puts an answer's message on the case queue (after the answer is written). */
export const caseQueue = {
  async answered(message: CaseMessage): Promise<void> {
    await sendMessage('cases', message);
  },
};
