// server.mjs: starts the real `gomoku serve` ($GMK_BIN) on a free loopback port for the API
// tests, and small HTTP helpers (a cookie jar per client, JSON requests, an SSE reader).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';

export const BIN = process.env.GMK_BIN;

const dirs = [];
// Every server started and not yet exited. A test that fails half-way may leave one running;
// its pipes would keep this file's process (and so the runner) waiting until run.sh's timeout.
const running = new Set();
const killAll = () => { for (const p of running) p.kill('SIGKILL'); running.clear(); };
process.on('exit', () => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
// After the file's tests: the suites' own after hooks (registered after this one, so run after
// it) stop their servers and check how they exit; whatever is still running 5 s later was left
// by a failed test and is killed, so the process can end (run.sh also passes --test-force-exit).
after(() => { setTimeout(killAll, 5000).unref(); });

/** A database path in a new temporary folder, removed when the tests end. */
export function tempDb() {
  const dir = mkdtempSync(join(tmpdir(), 'gmk-api-'));
  dirs.push(dir);
  return join(dir, 'gomoku.db');
}

/** Starts a server; resolves with {url, proc, stderr(), stop()} once it prints its URL. */
export function startServer(db, extra = []) {
  const proc = spawn(BIN, ['serve', '--listen', '127.0.0.1:0', '--db', db, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  proc.on('exit', () => running.delete(proc));
  let out = '';
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`no URL printed; stderr: ${err}`));
    }, 20000);
    proc.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: `http://127.0.0.1:${m[1]}`,
          port: Number(m[1]),
          proc,
          stderr: () => err,
          stop: (signal = 'SIGTERM') => new Promise((res) => {
            if (proc.exitCode !== null) return res(proc.exitCode);
            proc.removeAllListeners('exit');
            proc.on('exit', (code, sig) => { running.delete(proc); res(code ?? sig); });
            proc.kill(signal);
          }),
        });
      }
    });
  });
}

/** A browser: keeps its own cookie. */
export class Client {
  constructor(base) { this.base = base; this.cookie = ''; }

  async req(method, path, body, headers = {}) {
    const h = { ...headers };
    if (this.cookie) h.cookie = this.cookie;
    let payload;
    if (body === undefined && method === 'POST') body = {}; // actions are JSON, as the page sends
    if (body !== undefined) {
      if (typeof body === 'string') payload = body;
      else { payload = JSON.stringify(body); h['content-type'] ??= 'application/json'; }
    }
    const r = await fetch(this.base + path, { method, headers: h, body: payload });
    const set = r.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0];
    const text = await r.text();
    let json = null;
    try { json = JSON.parse(text); } catch { /* not JSON */ }
    return { status: r.status, headers: r.headers, text, json };
  }

  get(path, headers) { return this.req('GET', path, undefined, headers); }
  post(path, body, headers) { return this.req('POST', path, body, headers); }

  /** Opens the event stream of a game; returns {events, next(name, pred), close()}. */
  async events(id) {
    const ctrl = new AbortController();
    const h = this.cookie ? { cookie: this.cookie } : {};
    const r = await fetch(`${this.base}/api/games/${id}/events`, { headers: h, signal: ctrl.signal });
    const events = [];
    const waiters = [];
    const reader = r.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += dec.decode(value, { stream: true });
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const ev = { name: 'message', data: '' };
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) ev.name = line.slice(7);
              else if (line.startsWith('data: ')) ev.data += line.slice(6);
            }
            if (!ev.data) continue;
            ev.json = JSON.parse(ev.data);
            events.push(ev);
            for (const w of [...waiters]) w();
          }
        }
      } catch { /* aborted */ }
    })();
    return {
      status: r.status,
      headers: r.headers,
      events,
      next(name, pred = () => true, ms = 15000) {
        return new Promise((resolve, reject) => {
          const check = () => {
            const e = events.find((x) => x.name === name && pred(x.json) && !x.taken);
            if (e) {
              e.taken = true;
              waiters.splice(waiters.indexOf(check), 1);
              clearTimeout(t);
              resolve(e.json);
            }
          };
          const t = setTimeout(() => {
            waiters.splice(waiters.indexOf(check), 1);
            reject(new Error(`no '${name}' event within ${ms} ms; got ${events.map((e) => e.name)}`));
          }, ms);
          waiters.push(check);
          check();
        });
      },
      close() { ctrl.abort(); },
    };
  }
}

/** Polls a game until pred(state) holds. */
export async function until(client, id, pred, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const r = await client.get(`/api/games/${id}`);
    if (pred(r.json)) return r.json;
    if (Date.now() > end) throw new Error(`timed out; last state ${r.text}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}
