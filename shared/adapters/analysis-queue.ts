import type { AnalysisMessage } from '../themes/message.js';
import { sendMessage } from './sqs.js';

/** Puts an answer with a comment on the analysis queue (after the answer is written). */
export const analysisQueue = {
  async answered(message: AnalysisMessage): Promise<void> {
    await sendMessage('analysis', message);
  },
};
