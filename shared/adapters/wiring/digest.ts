import { ENV, requireEnv, requireEnvs, wire } from '../../config.js';
import * as figures from '../../digest/figures.js';
import * as sending from '../../digest/sending.js';
import * as page from '../../workspace/digest-page.js';
import { redirect } from '../../web-answer.js';
import { APP_DIGEST_PATH } from '../../session/paths.js';
import type { DigestMessage } from '../../digest/schema.js';
import type { UserRecord } from '../../access/ports.js';
import { findUserByName, listUsers, updateUser } from '../access-repository.js';
import { digestUnsubscribeToken, type DigestUnsubscribePorts } from '../../digest/unsubscribe.js';
import { caseStore } from '../case-repository.js';
import { digestClaims } from '../digest-claims.js';
import { sendDigestEmail } from '../digest-mail.js';
import { sendMessage, sendMessages } from '../sqs.js';
import { resultsService, themeResults } from './results.js';
import { answerStore } from '../answer-repository.js';
import { stores } from '../store-repository.js';
import { tenantSettings } from './tenants.js';
import { digestTimer } from './timers.js';

/** What the digest's figures read: the results' reports, the tenant's settings, its cases, and its themes. */
const figurePorts = () => ({
  report: resultsService.report,
  settings: tenantSettings,
  cases: caseStore,
  storeNames: async (tenantId: number, ids: number[]) =>
    new Map((ids.length ? await stores.getMany(tenantId, ids) : []).map((store) => [store.id, store.trade_name])),
  themes: { report: themeResults.report, answers: answerStore },
});

/** GET /public/digest: the figures in the token's scope; its case links relative to the API's base. */
export const digestReads = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  const ports = { ...figurePorts(), baseUrl: '' };
  return {
    figures: (request: figures.DigestRequest, user: Promise<UserRecord>) => figures.digestFigures(ports, request, user),
  };
});

/** Queues digests (the admin's POST, a scheduled run) and sends each user's once (the digest queue's consumer). */
export const digestSending = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName, ENV.digestQueueUrl);
  const ports: sending.DigestSendingPorts = {
    figures: figurePorts(),
    users: { list: listUsers, find: findUserByName },
    claims: digestClaims,
    async queue(messages) {
      const unsent = await sendMessages('digests', messages);
      if (unsent.length) throw new Error(`${unsent.length} digests could not be queued.`);
    },
    email: sendDigestEmail,
    get timer() {
      return digestTimer;
    },
    // Read when a link is made: outside a function runtime the module may load before it is set.
    get baseUrl() {
      return requireEnv(ENV.surveyBaseUrl);
    },
    unsubscribeToken: (tenantId, name) => digestUnsubscribeToken(tenantId, name, requireEnv(ENV.surveySecret)),
    async chat(delivery) {
      await sendMessage('chat', delivery);
    },
  };
  return {
    /** The admin's POST: the period's digests now, and the tenant's next scheduled run parked (if it was lost). */
    async queue(tenantId: number, period: figures.DigestPeriod, now = new Date()) {
      const queued = await sending.queueDigests(ports, tenantId, { periods: [period], now });
      await sending.scheduleNextRun(ports, tenantId, { settings: await tenantSettings(tenantId), now });
      return queued;
    },
    handle: (message: DigestMessage, now = new Date()) => sending.handleDigest(ports, message, now),
  };
});

/** The one-click unsubscribe page: the tenant's users, their brand, and the user's digest set to off. */
export const digestUnsubscribePorts = /* @__PURE__ */ wire((): DigestUnsubscribePorts => {
  requireEnvs(ENV.tableName);
  return {
    users: listUsers,
    settings: tenantSettings,
    stop: async (tenantId, user) => void (await updateUser(tenantId, user.tokenHash, { digest: 'off' })),
  };
});

/** The workspace's digest page: the figures in the signed-in user's scope, links under the stage's base. */
export async function showDigest({
  tenantId,
  user,
  base,
  query,
}: {
  tenantId: number;
  user: UserRecord;
  base: string;
  query: Record<string, string | undefined>;
}) {
  const [figures, settings] = await Promise.all([
    digestReads.figures({ tenantId, ...page.pageRequest(query), now: new Date() }, Promise.resolve(user)),
    tenantSettings(tenantId),
  ]);
  return page.digestPage({ figures, settings, user, base, ...(query.saved ? { choice: 'saved' as const } : {}) });
}

/** The digest page's form: the signed-in user's own choice of digest e-mail, saved, then back to the page. */
export async function chooseDigest({
  tenantId,
  user,
  base,
  form,
}: {
  tenantId: number;
  user: UserRecord;
  base: string;
  form: URLSearchParams;
}) {
  const choice = page.postedChoice(form);
  if (!choice) {
    const [figures, settings] = await Promise.all([
      digestReads.figures({ tenantId, period: 'week', now: new Date() }, Promise.resolve(user)),
      tenantSettings(tenantId),
    ]);
    return page.digestPage({ figures, settings, user, base, choice: 'invalid' });
  }
  await updateUser(tenantId, user.tokenHash, { digest: choice });
  return redirect(`${base}${APP_DIGEST_PATH}?saved=1`);
}
