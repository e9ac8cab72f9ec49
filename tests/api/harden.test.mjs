// harden.test.mjs: the attacks of issue 28 on `gomoku serve`, each against the real server
// on loopback (a second client address is a second 127.0.0.x source address): requests from
// another origin, the per-client limit (reset by another address, wrong codes on every route),
// connections per client and idle connections, libmicrohttpd's own errors, the early 413, the
// small leaks (parser texts, %00, ids out of range, room codes in the access log), writes by
// anonymous watchers, a room in use closed by the idle sweep, a move answered 200 that was not
// stored, rooms pinned in memory, invisible names and results counted by name; games created
// and puzzle answers stored per client (--write-limit). Every loop is
// bounded in count and time. Run by tests/api/run.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startServer, tempDb } from './server.mjs';

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

/** One HTTP request with full control of the headers (Origin, Sec-Fetch-Site, the source
 * address); resolves with {status, headers, text, json, cookies}. */
function request(base, method, path, { headers = {}, body, from, jar } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(base + path);
    const h = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined));
    if (jar && jar.size) h.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    if (payload !== undefined) {
      h['content-length'] = Buffer.byteLength(payload);
      if (typeof body !== 'string') h['content-type'] ??= 'application/json';
    }
    const rq = http.request({ host: u.hostname, port: u.port, method, path: u.pathname + u.search,
      headers: h, localAddress: from, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        const cookies = res.headers['set-cookie'] || [];
        for (const c of cookies) {
          const [kv] = c.split(';');
          const i = kv.indexOf('=');
          if (jar) jar.set(kv.slice(0, i), kv.slice(i + 1));
        }
        let json = null;
        try { json = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode, headers: res.headers, text, json, cookies });
      });
    });
    rq.setTimeout(10000, () => rq.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    rq.on('error', reject);
    if (payload !== undefined) rq.write(payload);
    rq.end();
  });
}

/** Sends raw bytes on a new connection; resolves with everything read until the server closes
 * or ms pass. */
function raw(port, bytes, { from, ms = 3000 } = {}) {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port, localAddress: from });
    let out = Buffer.alloc(0);
    const done = () => { clearTimeout(t); s.destroy(); resolve(out.toString('latin1')); };
    const t = setTimeout(done, ms);
    s.on('data', (d) => { out = Buffer.concat([out, d]); });
    s.on('end', done);
    s.on('error', done);
    s.on('connect', () => s.write(bytes));
  });
}

/** The answers in a raw reply: [{status, headers, body}], split by status lines. */
function answers(text) {
  const parts = text.split(/(?=HTTP\/1\.1 \d{3} )/).filter((p) => p.startsWith('HTTP/1.1 '));
  return parts.map((p) => {
    const i = p.indexOf('\r\n\r\n');
    const head = i < 0 ? p : p.slice(0, i);
    return { status: Number(p.slice(9, 12)), head, body: i < 0 ? '' : p.slice(i + 4) };
  });
}

/** A browser of the page: same-origin headers, its own cookie jar, a source address. */
class Page {
  constructor(base, from) { this.base = base; this.from = from; this.jar = new Map(); }

  req(method, path, body, headers = {}) {
    const h = { origin: this.base, 'sec-fetch-site': 'same-origin', ...headers };
    if (method === 'GET' || method === 'HEAD') delete h.origin;
    return request(this.base, method, path, { headers: h, body, from: this.from, jar: this.jar });
  }

  get(path) { return this.req('GET', path); }
  post(path, body = {}, headers) { return this.req('POST', path, body, headers); }
}

async function twoPlayers(base) {
  const ann = new Page(base);
  const bob = new Page(base);
  const c = await ann.post('/api/rooms', { name: 'Ann', black: 'me' });
  assert.equal(c.status, 201, c.text);
  const code = c.json.code;
  const j = await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' });
  assert.equal(j.status, 200, j.text);
  return { ann, bob, code };
}

let srv;
before(async () => { srv = await startServer(tempDb(), ['--engines', '1', '--quiet', '--join-limit', '1000']); });
after(async () => {
  if (srv && srv.proc.exitCode === null) {
    assert.equal(await srv.stop(), 0);
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/);
  }
});

describe('origin and content type (defect 1)', () => {
  test('a same-site page on another port cannot resign, offer a draw or move for a player', async () => {
    const { ann, code } = await twoPlayers(srv.url);
    const foreign = { origin: 'http://127.0.0.1:9999', 'sec-fetch-site': 'same-site' };
    // the issue's form post: any content type, no JSON
    let r = await ann.req('POST', `/api/rooms/${code}/resign`, 'x=1',
      { ...foreign, 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(r.status, 403, r.text);
    assert.equal(typeof r.json.error, 'string');
    for (const what of ['resign', 'draw', 'undo', 'claim', 'rematch', 'move', 'draw-answer', 'undo-answer', 'join']) {
      r = await ann.post(`/api/rooms/${code}/${what}`, { point: 'h8', accept: true, name: 'X' }, foreign);
      assert.equal(r.status, 403, `${what}: ${r.text}`);
      r = await ann.post(`/api/rooms/${code}/${what}`, {}, { 'sec-fetch-site': 'cross-site', origin: undefined });
      assert.equal(r.status, 403, `${what} cross-site without Origin: ${r.text}`);
      r = await ann.post(`/api/rooms/${code}/${what}`, {}, { origin: 'null' });
      assert.equal(r.status, 403, `${what} from Origin null: ${r.text}`);
    }
    const state = await ann.get(`/api/rooms/${code}`);
    assert.equal(state.json.phase, 'playing', 'nothing changed');
    assert.equal(state.json.ply, 0);
    assert.equal(state.json.draw_by, null);
    // the page itself (same origin) plays
    r = await ann.post(`/api/rooms/${code}/move`, { point: 'h8' });
    assert.equal(r.status, 200, r.text);
  });

  test('every action must be application/json, with or without a body (415)', async () => {
    const { ann, code } = await twoPlayers(srv.url);
    for (const what of ['resign', 'draw', 'undo', 'claim', 'rematch']) {
      for (const type of [undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const h = type ? { 'content-type': type } : {};
        const r = await ann.req('POST', `/api/rooms/${code}/${what}`, type ? 'x=1' : undefined, h);
        assert.equal(r.status, 415, `${what} as ${type}: ${r.text}`);
      }
    }
    assert.equal((await ann.get(`/api/rooms/${code}`)).json.phase, 'playing');
    // a game of the page: its actions too
    const g = await ann.post('/api/games', { mode: 'hvh' });
    assert.equal(g.status, 201, g.text);
    for (const what of ['undo', 'redo', 'resign', 'hint']) {
      let r = await ann.req('POST', `/api/games/${g.json.id}/${what}`, 'x=1', { 'content-type': 'text/plain' });
      assert.equal(r.status, 415, `${what}: ${r.text}`);
      r = await ann.post(`/api/games/${g.json.id}/${what}`, {}, { origin: 'http://evil.example' });
      assert.equal(r.status, 403, `${what}: ${r.text}`);
    }
    const r = await ann.req('POST', '/api/games', 'x=1', { 'content-type': 'text/plain' });
    assert.equal(r.status, 415, 'creating a game too');
    assert.equal((await ann.get(`/api/games/${g.json.id}`)).json.over, false);
  });

  test('a seat\'s event stream opened from another origin is refused; the page\'s own is not', async () => {
    const { ann, code } = await twoPlayers(srv.url);
    const r = await ann.req('GET', `/api/rooms/${code}/events`, undefined,
      { origin: 'http://127.0.0.1:9999', 'sec-fetch-site': 'same-site' });
    assert.equal(r.status, 403, r.text);
  });
});

describe('per-client limits (defects 2, 3)', () => {
  test('another address does not reset a client\'s count (127.0.0.72 beside 127.0.0.1)', async () => {
    const s = await startServer(tempDb(), ['--join-limit', '5', '--quiet']);
    try {
      const a = new Page(s.url, '127.0.0.1');
      for (let i = 0; i < 5; i++) assert.equal((await a.post('/api/rooms', { name: 'Ann' })).status, 201);
      assert.equal((await a.post('/api/rooms', { name: 'Ann' })).status, 429);
      for (const other of ['127.0.0.72', '127.0.0.2', '127.0.1.1']) {
        const b = new Page(s.url, other);
        assert.equal((await b.post('/api/rooms', { name: 'Bob' })).status, 201, `${other} has its own count`);
        assert.equal((await a.post('/api/rooms', { name: 'Ann' })).status, 429, `after ${other}, still 429`);
      }
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('wrong codes count on every room route; past the limit a probe learns nothing', async () => {
    const s = await startServer(tempDb(), ['--join-limit', '6', '--quiet']);
    try {
      const owner = new Page(s.url, '127.0.0.5');
      const code = (await owner.post('/api/rooms', { name: 'Ann' })).json.code;
      const p = new Page(s.url, '127.0.0.9');
      const probes = [
        () => p.get('/api/rooms/ZZZZZZZZZZZ2'), () => p.get('/api/rooms/ZZZZZZZZZZZ3/events'),
        () => p.post('/api/rooms/ZZZZZZZZZZZ4/move', { point: 'h8' }), () => p.post('/api/rooms/ZZZZZZZZZZZ5/resign'),
        () => p.req('HEAD', '/api/rooms/ZZZZZZZZZZZ6/events'), () => p.get('/api/rooms/nonsense!'),
      ];
      for (const probe of probes) assert.equal((await probe()).status, 404);
      for (let i = 0; i < 20; i++) {
        assert.equal((await p.get(`/api/rooms/ZZZZZZZZZZ${i + 10}`)).status, 429, 'a wrong code');
        assert.equal((await p.get(`/api/rooms/${code}`)).status, 429, 'the right code answers the same');
        assert.equal((await p.get(`/api/rooms/${code}/events`)).status, 429);
      }
      // the room's own player, at another address, is not held up; nor is the prober's own seat
      assert.equal((await owner.get(`/api/rooms/${code}`)).status, 200);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('a player past the limit still reaches the room it holds a seat in', async () => {
    const s = await startServer(tempDb(), ['--join-limit', '2', '--quiet']);
    try {
      const ann = new Page(s.url, '127.0.0.11');
      const code = (await ann.post('/api/rooms', { name: 'Ann' })).json.code;
      assert.equal((await ann.get('/api/rooms/ZZZZZZZZZZZZ')).status, 404);
      assert.equal((await ann.get('/api/rooms/ZZZZZZZZZZZY')).status, 429);
      assert.equal((await ann.get(`/api/rooms/${code}`)).status, 200);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });
});

describe('anonymous writes per client (issue 28, gap 1)', () => {
  test('POST /api/games: 60 games a minute per address by default, then 429 and nothing stored', async () => {
    const db = tempDb();
    const s = await startServer(db, ['--engines', '1', '--quiet']);
    try {
      const game = { mode: 'hvh' };
      // a new browser (no cookie) each time: dropping the cookie does not reset the count
      for (let i = 0; i < 60; i++) {
        const r = await new Page(s.url, '127.0.0.31').post('/api/games', game);
        assert.equal(r.status, 201, `game ${i + 1}: ${r.text}`);
      }
      for (let i = 0; i < 3; i++) {
        const r = await new Page(s.url, '127.0.0.31').post('/api/games', game);
        assert.equal(r.status, 429, r.text);
        assert.match(r.json.error, /wait a minute/);
      }
      const other = await new Page(s.url, '127.0.0.32').post('/api/games', game);
      assert.equal(other.status, 201, 'another address has its own count');
      // (counted in the file: the games list shows a browser only its own, defect 9)
      const stored = execFileSync('sqlite3', [db, 'SELECT count(*) FROM games']).toString().trim();
      assert.equal(stored, '61', 'the refused games were not stored');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('puzzle answers stored count too (--write-limit 3); an unrated answer is not counted', async () => {
    const s = await startServer(tempDb(), ['--write-limit', '3', '--quiet']);
    try {
      const pz = (await new Page(s.url, '127.0.0.34').get('/api/puzzles/next?kind=defence')).json;
      assert.ok(pz && pz.id, 'a puzzle');
      const sol = (await new Page(s.url, '127.0.0.34').post(`/api/puzzles/${pz.id}/hint`, { moves: [] })).json.hint;
      const answer = (hinted) => new Page(s.url, '127.0.0.34').post(`/api/puzzles/${pz.id}/move`, { moves: [], point: sol, hinted });
      for (let i = 0; i < 5; i++) assert.equal((await answer(true)).status, 200, 'hinted: nothing stored, not counted');
      for (let i = 0; i < 3; i++) {
        const r = await answer(false);
        assert.equal(r.status, 200, r.text);
        assert.equal(r.json.player.solved, 1, 'a new player each time, stored');
      }
      const r = await answer(false);
      assert.equal(r.status, 429, r.text);
      assert.equal((await new Page(s.url, '127.0.0.35').post('/api/games', {})).status, 201, 'another address');
      assert.equal((await new Page(s.url, '127.0.0.34').post('/api/games', {})).status, 429, 'games share the count');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('undo and redo count too: a loop of them cannot write without end (--write-limit 5)', async () => {
    const s = await startServer(tempDb(), ['--write-limit', '5', '--quiet']);
    try {
      const me = new Page(s.url, '127.0.0.36');
      const g = await me.post('/api/games', { mode: 'hvh', moves: 'h8i9' });
      assert.equal(g.status, 201, g.text); // write 1
      const id = g.json.id;
      assert.equal((await me.post(`/api/games/${id}/undo`)).status, 200); // 2
      assert.equal((await me.post(`/api/games/${id}/redo`)).status, 200); // 3
      assert.equal((await me.post(`/api/games/${id}/undo`)).status, 200); // 4
      assert.equal((await me.post(`/api/games/${id}/redo`)).status, 200); // 5
      const r = await me.post(`/api/games/${id}/undo`);
      assert.equal(r.status, 429, r.text);
      assert.match(r.json.error, /wait a minute/);
      assert.equal((await me.get(`/api/games/${id}`)).json.moves.length, 2, 'the refused undo changed nothing');
      assert.equal((await me.post(`/api/games/${id}/move`, { point: 'j10' })).status, 200, 'moves are not counted');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('a room\'s undo requests, draw offers and rematches count too (--write-limit 3)', async () => {
    const s = await startServer(tempDb(), ['--write-limit', '3', '--quiet']);
    try {
      const ann = new Page(s.url, '127.0.0.37');
      const bob = new Page(s.url, '127.0.0.38');
      const code = (await ann.post('/api/rooms', { name: 'Ann', black: 'me' })).json.code;
      assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
      assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'h8' })).status, 200);
      for (let i = 0; i < 3; i++) {
        const r = await ann.post(`/api/rooms/${code}/draw`);
        assert.notEqual(r.status, 429, `offer ${i + 1}: ${r.text}`);
        await bob.post(`/api/rooms/${code}/draw-answer`, { accept: false });
      }
      const r = await ann.post(`/api/rooms/${code}/undo`);
      assert.equal(r.status, 429, r.text);
      assert.notEqual((await bob.post(`/api/rooms/${code}/draw`)).status, 429, 'the other player has their own count');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('analyses: two at once per client; a third waits its turn with 429, another client is served', async () => {
    const s = await startServer(tempDb(), ['--engines', '1', '--queue', '8', '--quiet']);
    try {
      const ask = (from) => new Page(s.url, from).post('/api/analyze', { moves: 'h8i9h9', time_ms: 1500 });
      const first = [ask('127.0.0.39'), ask('127.0.0.39')];
      await sleep(200); // both are in the queue or running
      const third = await ask('127.0.0.39');
      assert.equal(third.status, 429, third.text);
      assert.match(third.json.error, /wait for one/);
      const other = ask('127.0.0.40');
      for (const r of await Promise.all(first)) assert.equal(r.status, 200, r.text);
      assert.equal((await other).status, 200, 'another address has its own places');
      assert.equal((await ask('127.0.0.39')).status, 200, 'the places are given back when the analyses end');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('--write-limit is range-checked', () => {
    for (const bad of ['0', '-1', '100001', 'x']) {
      let err = '';
      try {
        execFileSync(process.env.GMK_BIN, ['serve', '--write-limit', bad], { stdio: 'pipe' });
      } catch (e) { err = e.stderr.toString(); }
      assert.match(err, /--write-limit needs a number from 1 to 100000/, bad);
    }
  });
});

describe('connections (defect 7)', () => {
  test('one address cannot take every connection; idle connections are closed', async () => {
    const s = await startServer(tempDb(), ['--conn-limit', '8', '--idle-timeout', '2', '--quiet']);
    const socks = [];
    try {
      const closed = new Set();
      for (let i = 0; i < 40; i++) {
        const k = net.connect({ host: '127.0.0.1', port: s.port, localAddress: '127.0.0.20' });
        k.on('error', () => closed.add(i));
        k.on('close', () => closed.add(i));
        socks.push(k);
        await new Promise((res) => { k.once('connect', res); k.once('error', res); k.once('close', res); });
      }
      await sleep(500);
      assert.ok(closed.size >= 40 - 8, `the server closed ${closed.size} of 40 (8 allowed)`);
      // another address is served at once
      const r = await request(s.url, 'GET', '/api/config', { from: '127.0.0.21' });
      assert.equal(r.status, 200);
      // the idle ones are closed after the timeout, and the address may connect again
      const end = Date.now() + 6000;
      while (closed.size < 40 && Date.now() < end) await sleep(100);
      assert.equal(closed.size, 40, 'idle connections closed after 2 s');
      const again = await request(s.url, 'GET', '/api/config', { from: '127.0.0.20' });
      assert.equal(again.status, 200);
    } finally {
      for (const k of socks) k.destroy();
      assert.equal(await s.stop(), 0);
    }
  });

  test('an event stream is not an idle connection: it outlives the idle timeout', async () => {
    const s = await startServer(tempDb(), ['--idle-timeout', '1', '--quiet']);
    try {
      const ann = new Page(s.url);
      const code = (await ann.post('/api/rooms', { name: 'Ann' })).json.code;
      const got = await raw(s.port, `GET /api/rooms/${code}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, { ms: 2500 });
      assert.match(got, /^HTTP\/1\.1 200/);
      assert.match(got, /event: state/);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });
});

describe('errors are the API\'s JSON, once (defects 8, 9, 10)', () => {
  const H = 'Host: 127.0.0.1\r\n';
  for (const [name, bytes, status] of [
    ['a bad chunk', `POST /api/games HTTP/1.1\r\n${H}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 411],
    ['chunks at all', `POST /api/games HTTP/1.1\r\n${H}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`, 411],
    ['a long URL', `GET /${'a'.repeat(3000)} HTTP/1.1\r\n${H}\r\n`, 414],
    ['a long URL on the API', `GET /api/games/1?x=${'a'.repeat(5000)} HTTP/1.1\r\n${H}\r\n`, 414],
    ['%00 in the path', `GET /app.js%00.html HTTP/1.1\r\n${H}\r\n`, 400],
    ['%00 in an API path', `GET /api/games/1%00/record HTTP/1.1\r\n${H}\r\n`, 400],
  ]) {
    test(`${name}: ${status}, JSON, one answer`, async () => {
      const got = answers(await raw(srv.port, bytes));
      assert.equal(got.length, 1, `one answer: ${JSON.stringify(got)}`);
      assert.equal(got[0].status, status, got[0].head);
      assert.match(got[0].head, /Content-Type: application\/json/i);
      assert.equal(typeof JSON.parse(got[0].body).error, 'string');
    });
  }

  test('a body over 64 KiB is refused from its headers: 413 at once, no 100 Continue', async () => {
    const t0 = Date.now();
    const text = await raw(srv.port, 'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
      + 'Content-Length: 999999\r\nExpect: 100-continue\r\n\r\n', { ms: 5000 });
    assert.ok(Date.now() - t0 < 3000, 'answered without waiting for the body');
    assert.doesNotMatch(text, /100 Continue/);
    const got = answers(text);
    assert.equal(got.length, 1);
    assert.equal(got[0].status, 413);
    assert.match(got[0].head, /Content-Type: application\/json/i);
  });

  test('the parser\'s texts stay inside; an id out of range says so', async () => {
    const p = new Page(srv.url);
    for (const body of ['{"a":"\\u0000"}', '{"a":', '{"a":1,"a":2}', '[1]']) {
      const r = await p.req('POST', '/api/games', body, { 'content-type': 'application/json' });
      assert.equal(r.status, 400, body);
      assert.doesNotMatch(r.json.error, /JSON_|NUL|duplicate|jansson/i, r.json.error);
    }
    const r = await p.get('/api/games/99999999999999999999999');
    assert.equal(r.status, 404);
    assert.match(r.json.error, /out of range/);
    assert.doesNotMatch(r.json.error, /9223372036854775807/);
  });

  test('the access log shows a prefix of a room code, never the code', async () => {
    const s = await startServer(tempDb(), []);
    try {
      const ann = new Page(s.url);
      const code = (await ann.post('/api/rooms', { name: 'Ann' })).json.code;
      await ann.get(`/api/rooms/${code}`);
      await ann.get(`/api/rooms/${code.toLowerCase()}`);
      await ann.post(`/api/rooms/${code}/draw`);
      await sleep(200);
      assert.match(s.stderr(), new RegExp(`GET /api/rooms/${code.slice(0, 4)}\\.\\.\\. 200`));
      assert.doesNotMatch(s.stderr(), new RegExp(code.slice(4), 'i'));
      assert.doesNotMatch(s.stderr(), /specified for thread pool size/, 'no warning at start');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });
});

/** Opens a room's event stream on a raw connection (cookies as given); resolves with the
 * socket once the first event has arrived. */
function openStream(port, code, cookie = '', from) {
  return new Promise((resolve, reject) => {
    const k = net.connect({ host: '127.0.0.1', port, localAddress: from });
    let got = '';
    const t = setTimeout(() => { k.destroy(); reject(new Error(`no stream: ${got}`)); }, 5000);
    k.on('error', (e) => { clearTimeout(t); reject(e); });
    k.on('end', () => { clearTimeout(t); reject(new Error(`closed: ${got.slice(0, 200)}`)); });
    k.on('data', (d) => {
      got += d;
      if (/\r\n\r\n[\s\S]*\n\n/.test(got)) {
        clearTimeout(t);
        if (!got.startsWith('HTTP/1.1 200')) { k.destroy(); reject(new Error(got.slice(0, 200))); return; }
        k.removeAllListeners('data');
        k.text = got;
        k.on('data', (more) => { k.text += more; });
        resolve(k);
      }
    });
    k.on('connect', () => k.write(`GET /api/rooms/${code}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n`
      + `Sec-Fetch-Site: same-origin\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}\r\n`));
  });
}

const cookieOf = (page) => [...page.jar].map(([k, v]) => `${k}=${v}`).join('; ');

describe('rooms: writes, lifetime, memory (defects 4, 5, 6)', () => {
  test('watching writes nothing: 150 anonymous streams, HEADs and reads add no row', async () => {
    const db = tempDb();
    const s = await startServer(db, ['--quiet', '--join-limit', '1000']);
    try {
      const { ann, code } = await twoPlayers(s.url);
      const watcher = await openStream(s.port, code, cookieOf(ann)); // a player watches too
      await sleep(300);
      const q = (sql) => execFileSync('sqlite3', [db, sql]).toString().trim();
      const rows = q('SELECT count(*) FROM room_events');
      const touched = q('SELECT touched_ms FROM rooms');
      const t0 = Date.now();
      for (let i = 0; i < 100 && Date.now() - t0 < 20000; i++) {
        const k = await openStream(s.port, code, '', `127.0.1.${(i % 50) + 1}`); // many watchers
        k.destroy();
      }
      for (let i = 0; i < 25; i++) {
        assert.equal((await request(s.url, 'HEAD', `/api/rooms/${code}/events`, { headers: { 'sec-fetch-site': 'same-origin' } })).status, 200);
        assert.equal((await request(s.url, 'GET', `/api/rooms/${code}`)).status, 200);
      }
      await sleep(1500); // the closed streams are counted off by the timer
      assert.equal(q('SELECT count(*) FROM room_events'), rows, 'no event stored by watchers');
      assert.equal(q('SELECT touched_ms FROM rooms'), touched, 'the room was not touched');
      // the count still reaches the viewers, as an event of no number
      const k = await openStream(s.port, code);
      const end = Date.now() + 4000;
      while (!/event: spectators\ndata: \{"count":1\}/.test(watcher.text) && Date.now() < end) await sleep(100);
      assert.match(watcher.text, /event: spectators\ndata: \{"count":1\}/);
      assert.equal((await ann.get(`/api/rooms/${code}`)).json.spectators, 1);
      k.destroy();
      watcher.destroy();
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('a room a player has open is not closed as idle, and its next move is stored', async () => {
    const db = tempDb();
    let s = await startServer(db, ['--quiet', '--join-limit', '1000']);
    const q = (sql) => execFileSync('sqlite3', [db, sql]).toString().trim();
    let code;
    let ann;
    let bob;
    let other;
    try {
      ({ ann, bob, code } = await twoPlayers(s.url));
      assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'h8' })).status, 200);
      other = (await new Page(s.url).post('/api/rooms', { name: 'Zed' })).json.code;
    } finally {
      assert.equal(await s.stop(), 0);
    }
    // two tabs left open overnight: nothing happened in either room for two days
    q('UPDATE rooms SET touched_ms = touched_ms - 2 * 86400000');
    s = await startServer(db, ['--quiet', '--join-limit', '1000']);
    try {
      ann.base = bob.base = s.url;
      const tab = await openStream(s.port, code, cookieOf(ann)); // Ann's tab reconnects at once
      // the other room, which nobody has open, is closed by the sweep: wait for it
      const end = Date.now() + 8000;
      let gone = false;
      while (!gone && Date.now() < end) {
        gone = (await request(s.url, 'GET', `/api/rooms/${other}`)).status === 404;
        if (!gone) await sleep(250);
      }
      assert.ok(gone, 'the sweep closed the idle room nobody had open');
      const r = await bob.post(`/api/rooms/${code}/move`, { point: 'h9' });
      assert.equal(r.status, 200, r.text);
      assert.equal(q(`SELECT count(*) FROM moves WHERE game_id = ${r.json.game_id}`), '2', 'the move is stored');
      tab.destroy();
    } finally {
      assert.equal(await s.stop(), 0);
    }
    s = await startServer(db, ['--quiet', '--join-limit', '1000']);
    try {
      const r = await request(s.url, 'GET', `/api/rooms/${code}`);
      assert.equal(r.status, 200, 'the room survived');
      assert.equal(r.json.ply, 2);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('a move the store refuses is 500, never 200; the room is then read again as stored', async () => {
    const db = tempDb();
    const s = await startServer(db, ['--quiet', '--join-limit', '1000']);
    const q = (sql) => execFileSync('sqlite3', [db, sql]).toString().trim();
    try {
      const { ann, bob, code } = await twoPlayers(s.url);
      const first = await ann.post(`/api/rooms/${code}/move`, { point: 'h8' });
      assert.equal(first.status, 200);
      const bobTab = await openStream(s.port, code, cookieOf(bob));
      // behind the server's back the game is ended (as an older server's idle sweep did)
      q(`UPDATE games SET outcome = 0, reason = 0, ended_at = 1 WHERE id = ${first.json.game_id}`);
      const r = await bob.post(`/api/rooms/${code}/move`, { point: 'h9' });
      assert.equal(r.status, 500, r.text);
      assert.equal(typeof r.json.error, 'string');
      assert.equal(q(`SELECT count(*) FROM moves WHERE game_id = ${first.json.game_id}`), '1');
      // the stream of the room as it was ends; the room is read again as the store has it
      const end = Date.now() + 5000;
      const ended = () => bobTab.text.endsWith('\r\n0\r\n\r\n') || bobTab.readableEnded;
      while (!ended() && Date.now() < end) await sleep(100);
      assert.ok(ended(), 'the stale stream ended');
      bobTab.destroy();
      const now = await bob.get(`/api/rooms/${code}`);
      assert.equal(now.status, 200);
      assert.equal(now.json.ply, 1, 'the move that was not stored is not shown');
      assert.notEqual(now.json.phase, 'playing', 'the game is over, as stored');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('a game of the page likewise: a move the store refuses is 500, never 200', async () => {
    const db = tempDb();
    const s = await startServer(db, ['--quiet']);
    const q = (sql) => execFileSync('sqlite3', [db, sql]).toString().trim();
    try {
      const p = new Page(s.url);
      const g = await p.post('/api/games', { mode: 'hvh' });
      assert.equal(g.status, 201, g.text);
      assert.equal((await p.post(`/api/games/${g.json.id}/move`, { point: 'h8' })).status, 200);
      q(`UPDATE games SET outcome = 0, reason = 0, ended_at = 1 WHERE id = ${g.json.id}`);
      const r = await p.post(`/api/games/${g.json.id}/move`, { point: 'h9' });
      assert.equal(r.status, 500, r.text);
      assert.equal(q(`SELECT count(*) FROM moves WHERE game_id = ${g.json.id}`), '1');
      const again = await p.post(`/api/games/${g.json.id}/move`, { point: 'j9' });
      assert.notEqual(again.status, 200, 'nor any move after it');
      const now = await p.get(`/api/games/${g.json.id}`);
      assert.equal(now.status, 200);
      assert.deepEqual(now.json.moves, ['h8'], 'the game as stored');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('rooms in memory are capped: unwatched ones leave memory and come back from the store', async () => {
    const s = await startServer(tempDb(), ['--quiet', '--join-limit', '1000', '--rooms-max', '3']);
    const streams = [];
    try {
      const codes = [];
      for (let i = 0; i < 12; i++) {
        const r = await new Page(s.url).post('/api/rooms', { name: `P${i}` });
        assert.equal(r.status, 201, r.text);
        codes.push(r.json.code);
      }
      for (let i = 0; i < 12; i++) {
        const r = await request(s.url, 'GET', `/api/rooms/${codes[i]}`);
        assert.equal(r.status, 200, 'read again from the store');
        assert.equal(r.json.seats[0].name, `P${i}`);
      }
      // three watched rooms fill memory: a fourth cannot come in until one is let go
      for (let i = 0; i < 3; i++) streams.push(await openStream(s.port, codes[i]));
      assert.equal((await new Page(s.url).post('/api/rooms', { name: 'Q' })).status, 503);
      assert.equal((await request(s.url, 'GET', `/api/rooms/${codes[5]}`)).status, 503);
      assert.equal((await request(s.url, 'GET', `/api/rooms/${codes[1]}`)).status, 200, 'a watched room answers');
      streams.pop().destroy();
      const end = Date.now() + 5000;
      let r;
      do {
        await sleep(200);
        r = await new Page(s.url).post('/api/rooms', { name: 'Q' });
      } while (r.status === 503 && Date.now() < end);
      assert.equal(r.status, 201, r.text);
    } finally {
      for (const k of streams) k.destroy();
      assert.equal(await s.stop(), 0);
    }
  });
});

describe('names (defect 11)', () => {
  test('names without a visible character are refused, to create and to join', async () => {
    const { ann, code } = await twoPlayers(srv.url);
    for (const name of ['\u200B', '\u3164', '\u2800', ' \u200B\u2800\u3000', '\uFFA0\u115F', '\uFE0F', '\u00AD\u2060']) {
      const c = await new Page(srv.url).post('/api/rooms', { name });
      assert.equal(c.status, 400, `create as ${JSON.stringify(name)}: ${c.text}`);
      assert.match(c.json.error, /visible/);
    }
    const fresh = (await ann.post('/api/rooms', { name: 'Ann' })).json.code;
    const j = await new Page(srv.url).post(`/api/rooms/${fresh}/join`, { name: '\u3164' });
    assert.equal(j.status, 400, j.text);
    assert.equal((await ann.get(`/api/rooms/${fresh}`)).json.seats[1].taken, false);
    assert.ok(code);
  });

  test('online results are counted by seat: losing games as "Ann" does not touch Ann\'s line', async () => {
    const s = await startServer(tempDb(), ['--quiet', '--join-limit', '1000']);
    try {
      // the real Ann wins a game
      const { ann, bob, code } = await twoPlayers(s.url);
      for (const [who, p] of [[ann, 'h8'], [bob, 'a1'], [ann, 'i8'], [bob, 'a2'], [ann, 'j8'], [bob, 'a3'], [ann, 'k8'], [bob, 'a4'], [ann, 'l8']])
        assert.equal((await who.post(`/api/rooms/${code}/move`, { point: p })).status, 200);
      // someone else calls themselves Ann and loses three games
      for (let i = 0; i < 3; i++) {
        const fake = new Page(s.url);
        const eve = new Page(s.url);
        const c = (await fake.post('/api/rooms', { name: 'Ann' })).json.code;
        assert.equal((await eve.post(`/api/rooms/${c}/join`, { name: 'Eve' })).status, 200);
        assert.equal((await fake.post(`/api/rooms/${c}/resign`)).status, 200);
      }
      const stats = (await request(s.url, 'GET', '/api/stats')).json;
      const anns = stats.online_players.filter((p) => p.name === 'Ann');
      assert.equal(anns.length, 4, JSON.stringify(stats.online_players));
      const real = anns.filter((p) => p.wins === 1);
      assert.equal(real.length, 1);
      assert.deepEqual({ ...real[0] }, { name: 'Ann', games: 1, wins: 1, losses: 0, draws: 0 });
      for (const p of anns.filter((x) => x !== real[0])) assert.deepEqual({ ...p }, { name: 'Ann', games: 1, wins: 0, losses: 1, draws: 0 });
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });
});

describe('--trust-proxy', () => {
  test('the limits count the forwarded client; https makes the cookies Secure', async () => {
    const s = await startServer(tempDb(), ['--trust-proxy', '--join-limit', '2', '--quiet']);
    try {
      const hdr = (ip, proto = 'http') => ({ 'x-forwarded-for': `203.0.113.9, ${ip}`, 'x-forwarded-proto': proto });
      const a = new Page(s.url);
      assert.equal((await a.post('/api/rooms', { name: 'A' }, hdr('198.51.100.1'))).status, 201);
      assert.equal((await a.post('/api/rooms', { name: 'A' }, hdr('198.51.100.1'))).status, 201);
      assert.equal((await a.post('/api/rooms', { name: 'A' }, hdr('198.51.100.1'))).status, 429);
      assert.equal((await a.post('/api/rooms', { name: 'B' }, hdr('198.51.100.2'))).status, 201, 'another client');
      // one IPv6 /64 is one client
      assert.equal((await a.post('/api/rooms', { name: 'C' }, hdr('2001:db8:1:2::1'))).status, 201);
      assert.equal((await a.post('/api/rooms', { name: 'C' }, hdr('2001:db8:1:2::ffff'))).status, 201);
      assert.equal((await a.post('/api/rooms', { name: 'C' }, hdr('2001:db8:1:2:aaaa::5'))).status, 429);
      assert.equal((await a.post('/api/rooms', { name: 'D' }, hdr('2001:db8:1:3::1'))).status, 201);
      // over HTTPS (the proxy says so): Secure cookies, and the page's origin is https
      const b = new Page(s.url);
      const h = { ...hdr('198.51.100.3', 'https'), origin: s.url.replace('http:', 'https:') };
      const r = await b.post('/api/rooms', { name: 'E' }, h);
      assert.equal(r.status, 201, r.text);
      assert.ok(r.cookies.every((c) => /; Secure/.test(c)), r.cookies.join(' | '));
      const g = await b.post('/api/games', { mode: 'hvh' }, h);
      assert.ok(g.cookies.some((c) => c.startsWith('gmk_owner=') && /; Secure/.test(c)));
      // an http origin for an https page is another origin
      assert.equal((await b.post('/api/rooms', { name: 'E' }, { ...h, origin: s.url })).status, 403);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('without --trust-proxy the headers are ignored and no cookie is Secure', async () => {
    const s = await startServer(tempDb(), ['--join-limit', '1', '--quiet']);
    try {
      const a = new Page(s.url);
      const r = await a.post('/api/rooms', { name: 'A' }, { 'x-forwarded-for': '198.51.100.1', 'x-forwarded-proto': 'https' });
      assert.equal(r.status, 201);
      assert.ok(r.cookies.every((c) => !/Secure/.test(c)));
      const r2 = await a.post('/api/rooms', { name: 'A' }, { 'x-forwarded-for': '198.51.100.2' });
      assert.equal(r2.status, 429, 'a forged header does not make another client');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });
});
