import * as v from 'valibot';
import { isLocalDeployment } from '../config.js';
import { webAddressProblem } from '../web-address.js';

/**
 * The endpoints a tenant configures (its chatbot's, its chat channels', its event webhooks'): a public https address,
 * each listed once. A module of its own, so that only the functions that read those slices carry the address checks
 * (ipaddr.js, 29 kB of a survey page's bundle when they lived among the shared fields).
 */
export const webUrl = v.pipe(
  v.string('must be a string'),
  v.maxLength(2000, 'must be at most 2000 characters'),
  v.url('must be a URL'),
  // Judged by the parsed address, not its text: `http://localhost:x@host/` names `host`, user information first. A
  // pipe runs on after v.url fails: what is not a URL has its issue already, and must not throw here (a 500).
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed || !URL.canParse(dataset.value)) return;
    const url = new URL(dataset.value);
    const problem = webAddressProblem(url, isLocalDeployment());
    if (problem) addIssue({ message: problem });
    // A user name or password in the address would be a secret in the configuration the admin API answers and audits.
    if (url.username || url.password)
      addIssue({ message: 'must not carry a user name or password (use a token the receiver checks, or the signature)' });
  }),
);

/**
 * A list of endpoints, each known by its URL: a URL listed a second time is refused there (the chat endpoints, the
 * event webhooks).
 */
export const urlsOnce = <TInput extends readonly { url: string }[]>() =>
  v.rawCheck<TInput>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    dataset.value.forEach((endpoint, index) => {
      if (dataset.value.findIndex((other) => other.url === endpoint.url) < index)
        addIssue({
          message: 'lists a URL twice (an endpoint is known by its URL)',
          path: [{ type: 'array', origin: 'value', input: dataset.value, key: index, value: endpoint }],
        });
    });
  });
