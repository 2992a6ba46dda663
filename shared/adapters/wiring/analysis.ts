import { ENV, requireEnvs, wire } from '../../config.js';
import { commentAnalysis } from '../../themes/analysis.js';
import { analysisStore } from '../analysis-repository.js';
import { comprehendAnalyser } from '../comprehend.js';
import { tenantSettings } from './tenants.js';

/** The analysis queue's consumer: the answer and its counters in the table, Comprehend, the tenant's themes. */
export const commentAnalyser = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return commentAnalysis({ answers: analysisStore, comprehend: comprehendAnalyser, settings: tenantSettings });
});
