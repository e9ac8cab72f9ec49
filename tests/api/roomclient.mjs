// roomclient.mjs: a browser for the online rooms' API tests: a cookie jar of several cookies
// (one seat per room), JSON requests, and a room's event stream read as the page reads it
// (each event with its SSE name and id). Used by rooms.test.mjs, chat.test.mjs and
// tests/pg/scale.test.mjs; ROOM_SERVER_ARGS are the options their shared servers start with.
/** `gomoku serve` options for room tests: one engine, quiet, joins not limited in practice. */
export const ROOM_SERVER_ARGS = ['--engines', '1', '--quiet', '--join-limit', '1000'];

/** A browser with a cookie jar (several cookies: one seat per room). */
export class Browser {
  constructor(base) { this.base = base; this.jar = new Map(); }

  cookieHeader() { return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '); }

  /** A request, cut (and the test failed) after ms: an answer never hangs. */
  async req(method, path, body, headers = {}, ms = 30000) {
    const h = { ...headers };
    if (this.jar.size) h.cookie = this.cookieHeader();
    let payload;
    if (body !== undefined) { payload = JSON.stringify(body); h['content-type'] = 'application/json'; }
    const r = await fetch(this.base + path, { method, headers: h, body: payload, signal: AbortSignal.timeout(ms) });
    for (const c of r.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const i = kv.indexOf('=');
      this.jar.set(kv.slice(0, i), kv.slice(i + 1));
    }
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, headers: r.headers, text, json };
  }

  get(path) { return this.req('GET', path); }
  post(path, body = {}) { return this.req('POST', path, body); }

  /** Opens a room's event stream; events carry their SSE id. */
  stream(code, lastEventId) { return this.events(`/api/rooms/${code}/events`, lastEventId); }

  /** Opens an event stream (a room's, the lobby's); events carry their SSE name and id. */
  async events(path, lastEventId) {
    const ctrl = new AbortController();
    const h = {};
    if (this.jar.size) h.cookie = this.cookieHeader();
    if (lastEventId !== undefined) h['last-event-id'] = String(lastEventId);
    const r = await fetch(`${this.base}${path}`, { headers: h, signal: ctrl.signal });
    for (const c of r.headers.getSetCookie()) { // a stream may give the browser its cookie
      const [kv] = c.split(';');
      const i = kv.indexOf('=');
      this.jar.set(kv.slice(0, i), kv.slice(i + 1));
    }
    const events = [];
    const waiters = new Set();
    if (r.status === 200) {
      (async () => {
        const reader = r.body.getReader();
        const dec = new TextDecoder();
        let buf = '';
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += dec.decode(value, { stream: true });
            let i;
            while ((i = buf.indexOf('\n\n')) >= 0) {
              const block = buf.slice(0, i);
              buf = buf.slice(i + 2);
              const ev = { name: 'message', id: null, data: '' };
              for (const line of block.split('\n')) {
                if (line.startsWith('event: ')) ev.name = line.slice(7);
                else if (line.startsWith('id: ')) ev.id = Number(line.slice(4));
                else if (line.startsWith('data: ')) ev.data += line.slice(6);
              }
              if (!ev.data) continue;
              ev.json = JSON.parse(ev.data);
              ev.at = performance.now();
              events.push(ev);
              for (const w of [...waiters]) w();
            }
          }
        } catch { /* aborted */ }
      })();
    }
    return {
      status: r.status,
      events,
      /** The events of the room's log (the numbered ones). */
      room() { return events.filter((e) => e.name === 'room'); },
      /** Waits for a room event whose JSON satisfies pred. */
      until(pred, ms = 10000) {
        return new Promise((resolve, reject) => {
          const check = () => {
            const e = events.find((x) => pred(x.json, x));
            if (!e) return;
            waiters.delete(check);
            clearTimeout(t);
            resolve(e);
          };
          const t = setTimeout(() => {
            waiters.delete(check);
            reject(new Error(`no such event within ${ms} ms; got ${events.map((e) => e.data).join('\n')}`));
          }, ms);
          waiters.add(check);
          check();
        });
      },
      close() { ctrl.abort(); },
    };
  }
}
