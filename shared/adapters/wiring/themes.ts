import { ENV, requireEnvs, wire } from '../../config.js';
import { commentAnalysis } from '../../themes/analysis.js';
import { analysisStore } from '../analysis-repository.js';
import { comprehendAnalyser } from '../comprehend.js';
import { reanalysisRepository } from '../reanalysis-repository.js';
import { reanalyseComments } from '../../themes/reanalysis.js';
import { suggestionsService } from '../../themes/suggestions.js';
import { phraseCells } from '../phrase-counters.js';
import { configService, tenantSettings } from './tenants.js';
import * as configForm from '../../workspace/admin-config-form.js';
import * as themesPage from '../../workspace/admin-themes-page.js';

/** The analysis queue's consumer: the answer and its counters in the table, Comprehend, the tenant's themes. */
export const commentAnalyser = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return commentAnalysis({ answers: analysisStore, comprehend: comprehendAnalyser, settings: tenantSettings });
});

/** The operator's reanalysis of a tenant's comments with its current themes (`npm run admin -- reanalyse`). */
export const commentReanalysis = /* @__PURE__ */ wire(
  () => (tenantId: number, period: { from: string; to: string }, report: (line: string) => void) =>
    reanalyseComments({ ...reanalysisRepository, reanalyse: commentAnalyser.reanalyse }, tenantId, { period, report }),
);

/** GET /public/themes/suggestions: the suggestion counters and the tenant's themes. */
export const themeSuggestions = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return suggestionsService({ cells: phraseCells, settings: tenantSettings });
});

/** The tenant admins' themes page and its form's post: the configuration service, and the suggestions above. */
const themesPagePorts = () => ({
  readConfig: configService.readConfig,
  replaceConfig: configService.replaceConfig,
  settings: tenantSettings,
  suggestions: themeSuggestions,
});
export const adminThemesPage = /* @__PURE__ */ wire(() => themesPage.adminThemesPage(themesPagePorts()));
export const adminThemesForm = /* @__PURE__ */ wire(() => themesPage.adminThemesForm(themesPagePorts(), configForm.changeConfig));
