// Loaded with `node --import` by record_upstream_security.py, only for the states that say so.
// The gateway counts a zalouser account as set up (and audits it) when its saved Zalo session
// logs in: `checkZaloAuthenticated` reads credentials/zalouser/credentials*.json, then logs in to
// Zalo's servers with it through the bundled zca-js client and fetches the account's info. The
// recording has no network and no real Zalo account, so this hook replaces the zca-js client (and
// nothing else): a login with a saved session succeeds and names a user. Every rule of the
// gateway's audit stays its own.
import { register } from "node:module";

const ZCA_CHUNK = "/openclaw/dist/dist-COPr1gF9.js"; // where openclaw 2026.4.12 bundles zca-js
const SOURCE = `export class Zalo {
  constructor(options) { this.options = options; }
  async login(credentials) {
    return { fetchAccountInfo: async () => ({ profile: { userId: "100000001", displayName: "Recorder" } }) };
  }
}
`;

register(`data:text/javascript,${encodeURIComponent(`
const ZCA_CHUNK = ${JSON.stringify(ZCA_CHUNK)};
const SOURCE = ${JSON.stringify(SOURCE)};
export async function load(url, context, next) {
  if (url.startsWith("file:") && url.endsWith(ZCA_CHUNK)) {
    return { format: "module", source: SOURCE, shortCircuit: true };
  }
  return next(url, context);
}
`)}`);
