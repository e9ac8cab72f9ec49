// jar.mjs: a browser for the API tests that keeps every cookie it is given (owner, seats,
// session) and drops one the server clears (Max-Age=0); extra headers go with each request.
/** A browser with a cookie jar (owner, seats and session cookies). */
export class Browser {
  constructor(base, headers = {}) { this.base = base; this.jar = new Map(); this.headers = headers; }

  async req(method, path, body, headers = {}) {
    const h = { ...this.headers, ...headers };
    if (this.jar.size) h.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload;
    if (body !== undefined) { payload = JSON.stringify(body); h['content-type'] = 'application/json'; }
    const r = await fetch(this.base + path, { method, headers: h, body: payload });
    const cookies = r.headers.getSetCookie();
    for (const c of cookies) {
      const [kv] = c.split(';');
      const i = kv.indexOf('=');
      if (/Max-Age=0/.test(c)) this.jar.delete(kv.slice(0, i));
      else this.jar.set(kv.slice(0, i), kv.slice(i + 1));
    }
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, headers: r.headers, text, json, cookies };
  }

  get(path, headers) { return this.req('GET', path, undefined, headers); }
  post(path, body = {}, headers) { return this.req('POST', path, body, headers); }
}
