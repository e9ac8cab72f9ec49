// api.test.mjs: the HTTP API of `gomoku serve` (docs/http-api.md) against the real server
// process on a free loopback port, with a real SQLite file: every route, every error status,
// the event stream, ownership, a restart in the middle of a game, two clients moving at once,
// and a full engine pool (503). Run by tests/api/run.sh with node's built-in test runner.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { BIN, Client, startServer, tempDb, until } from './server.mjs';

let srv;
let db;
let base;

before(async () => {
  db = tempDb();
  // the suite creates many games from one address: past the default --write-limit (60)
  srv = await startServer(db, ['--engines', '2', '--write-limit', '10000']);
  base = srv.url;
});

after(async () => {
  if (srv && srv.proc.exitCode === null) await srv.stop();
});

const newGame = async (client, body = {}) => {
  const r = await client.post('/api/games', body);
  assert.equal(r.status, 201, r.text);
  return r.json;
};

describe('page and headers', () => {
  test('GET / serves the embedded page with CSP, nosniff and an ETag; 304 when fresh', async () => {
    const c = new Client(base);
    const r = await c.get('/');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type'), /text\/html/);
    const csp = r.headers.get('content-security-policy');
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    const etag = r.headers.get('etag');
    assert.match(etag, /^"[0-9a-f]{16}"$/);
    const again = await c.get('/', { 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal((await c.get('/', { 'if-none-match': '"other"' })).status, 200);
  });

  test('unknown files and routes are 404 JSON; wrong methods 405', async () => {
    const c = new Client(base);
    for (const path of ['/no-such-file.js', '/api/nope', '/api/games/abc', '/api/games/1/nope', '/api/games/0']) {
      const r = await c.get(path);
      assert.equal(r.status, 404, path);
      assert.equal(typeof r.json.error, 'string', path);
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    }
    assert.equal((await c.req('DELETE', '/api/config')).status, 405);
    assert.equal((await c.post('/api/config', {})).status, 405);
    assert.equal((await c.post('/', 'x', { 'content-type': 'text/plain' })).status, 405);
    const g = await newGame(c, { mode: 'hvh' });
    assert.equal((await c.get(`/api/games/${g.id}/move`)).status, 405);
    assert.equal((await c.post(`/api/games/${g.id}/events`, {})).status, 405);
  });
});

describe('config', () => {
  test('GET /api/config gives the rules, sizes, the level ladder and the defaults', async () => {
    const r = await new Client(base).get('/api/config');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.rules, ['freestyle', 'standard', 'renju', 'caro']);
    assert.deepEqual(r.json.sizes, { min: 5, max: 22, default: 15 });
    assert.equal(r.json.levels.length, 7);
    assert.equal(r.json.levels[0].name, 'Beginner');
    assert.equal(r.json.levels[6].name, 'Master');
    assert.equal(r.json.defaults.size, 15);
    assert.equal(r.json.lang, 'en');
  });
});

describe('games', () => {
  test('POST /api/games creates an owned game and sets an HttpOnly 128-bit cookie', async () => {
    const c = new Client(base);
    const r = await c.post('/api/games', { mode: 'hvc', rule: 'standard', size: 13, level: 3, human: 'black' });
    assert.equal(r.status, 201);
    const set = r.headers.get('set-cookie');
    assert.match(set, /^gmk_owner=[0-9a-f]{32};/);
    assert.match(set, /HttpOnly/);
    assert.match(set, /SameSite=Strict/);
    assert.equal(r.json.rule, 'standard');
    assert.equal(r.json.size, 13);
    assert.equal(r.json.level, 3);
    assert.equal(r.json.level_name, 'Casual');
    assert.equal(r.json.owner, true);
    assert.equal(r.json.your_turn, true);
    assert.deepEqual(r.json.moves, []);
    // a second game keeps the same cookie
    const r2 = await c.post('/api/games', {});
    assert.equal(r2.status, 201);
    assert.equal(r2.headers.get('set-cookie'), null);
    assert.equal(r2.json.owner, true);
  });

  test('bad game settings are 400; a body that is not JSON is 415 or 400', async () => {
    const c = new Client(base);
    for (const body of [{ mode: 'cvc' }, { rule: 'go' }, { size: 4 }, { size: 23 }, { level: 0 }, { level: 8 },
      { human: 'red' }, { moves: 'h8h8' }, { moves: 'z99' }, { moves: 42 }, { size: '15' }]) {
      const r = await c.post('/api/games', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.json.error.length > 0);
    }
    assert.equal((await c.post('/api/games', '{"mode":', { 'content-type': 'application/json' })).status, 400);
    assert.equal((await c.post('/api/games', '[1,2]', { 'content-type': 'application/json' })).status, 400);
    assert.equal((await c.post('/api/games', 'mode=hvc', { 'content-type': 'application/x-www-form-urlencoded' })).status, 415);
  });

  test('a share link position: moves set up the game, which goes on from there', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh', moves: 'h8i9h9' });
    assert.deepEqual(g.moves, ['h8', 'i9', 'h9']);
    assert.equal(g.to_move, 'white');
    const g2 = await newGame(c, { mode: 'hvh', moves: ['h8', 'i9'] });
    assert.deepEqual(g2.moves, ['h8', 'i9']);
    // a position after the end of the game is refused
    const r = await c.post('/api/games', { mode: 'hvh', moves: 'a1b1a2b2a3b3a4b4a5b5' });
    assert.equal(r.status, 400);
  });

  test('GET /api/games/{id}: the state for anyone, owner only for the owner; 404 unknown', async () => {
    const a = new Client(base);
    const g = await newGame(a, { mode: 'hvh' });
    const other = new Client(base);
    const r = await other.get(`/api/games/${g.id}`);
    assert.equal(r.status, 200);
    assert.equal(r.json.owner, false);
    assert.equal((await a.get(`/api/games/${g.id}`)).json.owner, true);
    const missing = await a.get('/api/games/999999');
    assert.equal(missing.status, 404);
    assert.match(missing.json.error, /no game/);
  });

  test('GET /api/games lists the games, marking the caller\'s own', async () => {
    const a = new Client(base);
    const g = await newGame(a, { mode: 'hvh', moves: 'h8' });
    const mine = (await a.get('/api/games?limit=500')).json.games.find((x) => x.id === g.id);
    assert.equal(mine.owner, true);
    assert.equal(mine.moves, 1);
    assert.equal(mine.finished, false);
    // another browser does not see it: its games are its own (defect 9); online games are public
    const theirs = (await new Client(base).get('/api/games?limit=500')).json.games.find((x) => x.id === g.id);
    assert.equal(theirs, undefined);
    assert.equal(mine.public, false);
    assert.equal((await a.get('/api/games?limit=0')).status, 400);
    assert.equal((await a.get('/api/games?limit=x')).status, 400);
  });
});

describe('playing', () => {
  test('hvc: a move, then the computer\'s reply arrives as move and state events', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvc', level: 1 });
    const ev = await c.events(g.id);
    assert.equal(ev.status, 200);
    assert.match(ev.headers.get('content-type'), /text\/event-stream/);
    const first = await ev.next('state');
    assert.equal(first.id, g.id);
    const r = await c.post(`/api/games/${g.id}/move`, { point: 'h8', ply: 0 });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.moves, ['h8']);
    const human = await ev.next('move', (m) => m.ply === 1);
    assert.deepEqual(human, { point: 'h8', color: 'black', ply: 1 });
    const reply = await ev.next('move', (m) => m.ply === 2);
    assert.equal(reply.color, 'white');
    const st = await ev.next('state', (s) => s.moves.length === 2);
    assert.equal(st.your_turn, true);
    assert.equal(st.thinking, false);
    assert.equal(st.owner, true);
    await new Promise((res) => setTimeout(res, 300));
    assert.deepEqual(ev.events.filter((e) => e.name === 'move').map((e) => e.json.ply), [1, 2], 'each move once, in order');
    ev.close();
  });

  test('a viewer without the cookie sees the events (owner false) but gets 403 for every action', async () => {
    const a = new Client(base);
    const g = await newGame(a, { mode: 'hvh' });
    const watcher = new Client(base);
    const ev = await watcher.events(g.id);
    assert.equal((await ev.next('state')).owner, false);
    for (const what of ['move', 'undo', 'redo', 'resign', 'hint']) {
      const r = await watcher.post(`/api/games/${g.id}/${what}`, what === 'move' ? { point: 'h8' } : undefined);
      assert.equal(r.status, 403, what);
      assert.match(r.json.error, /another browser/);
    }
    await a.post(`/api/games/${g.id}/move`, { point: 'h8' });
    const st = await ev.next('state', (s) => s.moves.length === 1);
    assert.equal(st.owner, false);
    // a forged cookie is not the owner either
    const forged = new Client(base);
    forged.cookie = 'gmk_owner=00000000000000000000000000000000';
    assert.equal((await forged.post(`/api/games/${g.id}/move`, { point: 'i9' })).status, 403);
    ev.close();
    const after = await a.get(`/api/games/${g.id}`);
    assert.deepEqual(after.json.moves, ['h8']);
  });

  test('bad moves: 400 for a missing or off-board point, 409 for taken, stale, over', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh' });
    const url = `/api/games/${g.id}/move`;
    for (const body of [{}, { point: 'z99' }, { point: 'h16' }, { point: 7 }, { point: 'h8', ply: 'x' }])
      assert.equal((await c.post(url, body)).status, 400, JSON.stringify(body));
    assert.equal((await c.post(url, 'point=h8', { 'content-type': 'text/plain' })).status, 415);
    assert.equal((await c.post(url, { point: 'h8' })).status, 200);
    const taken = await c.post(url, { point: 'h8' });
    assert.equal(taken.status, 409);
    assert.equal(taken.json.reason, 'occupied');
    const stale = await c.post(url, { point: 'i9', ply: 0 });
    assert.equal(stale.status, 409);
    assert.equal(stale.json.reason, 'stale');
    assert.equal((await c.post(`/api/games/${g.id}/resign`)).status, 200);
    const over = await c.post(url, { point: 'i9' });
    assert.equal(over.status, 409);
    assert.equal(over.json.reason, 'game-over');
    assert.deepEqual((await c.get(`/api/games/${g.id}`)).json.moves, ['h8']);
  });

  test('a five ends the game: result with its line, and a result event', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh', moves: 'h8a1i8a2j8a3k8a4' });
    const ev = await c.events(g.id);
    const r = await c.post(`/api/games/${g.id}/move`, { point: 'l8' });
    assert.equal(r.status, 200);
    assert.equal(r.json.over, true);
    assert.equal(r.json.result.winner, 'black');
    assert.equal(r.json.result.reason, 'five');
    assert.deepEqual([...r.json.result.line].sort(), ['h8', 'i8', 'j8', 'k8', 'l8']);
    const res = await ev.next('result');
    assert.equal(res.reason, 'five');
    ev.close();
    assert.equal((await c.post(`/api/games/${g.id}/undo`)).status, 409);
  });

  test('renju: black left with only forbidden points draws, reason no-legal-point', async () => {
    const c = new Client(base);
    // tests/unit/test_rules.c's 6x6 position, before white's last move (f1)
    const moves = 'a6 a5 b6 b5 c6 c5 e6 e5 f6 f5 d5 a3 a4 b3 b4 c3 c4 e3 e4 f3 f4 a2 d3 b2 c2 e2 d2 b1 f2 c1 a1 d1 e1';
    const g = await newGame(c, { mode: 'hvh', rule: 'renju', size: 6, moves: moves.split(' ') });
    assert.equal(g.over, false);
    const r = await c.post(`/api/games/${g.id}/move`, { point: 'f1' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.over, true);
    assert.equal(r.json.result.outcome, 'draw');
    assert.equal(r.json.result.reason, 'no-legal-point');
  });

  test('renju: black\'s forbidden points with their kind; playing one is 409 forbidden', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh', rule: 'renju', moves: 'h7a1h9a3g8a5i8a7' });
    assert.deepEqual(g.forbidden, [{ point: 'h8', kind: 'double-three' }]);
    const r = await c.post(`/api/games/${g.id}/move`, { point: 'h8' });
    assert.equal(r.status, 409);
    assert.equal(r.json.reason, 'forbidden');
    assert.equal(r.json.kind, 'double-three');
    const ok = await c.post(`/api/games/${g.id}/move`, { point: 'm12' });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.json.forbidden, []); // white to move
  });

  test('undo and redo (hvh: one move each); 409 when there is nothing to undo or redo', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh' });
    const u = (w) => c.post(`/api/games/${g.id}/${w}`);
    assert.equal((await u('undo')).status, 409);
    assert.equal((await u('redo')).status, 409);
    await c.post(`/api/games/${g.id}/move`, { point: 'h8' });
    await c.post(`/api/games/${g.id}/move`, { point: 'i9' });
    let r = await u('undo');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.moves, ['h8']);
    assert.equal(r.json.can_redo, true);
    r = await u('redo');
    assert.deepEqual(r.json.moves, ['h8', 'i9']);
    assert.equal((await u('redo')).status, 409);
  });

  test('swap2 between two people: place three, place two more, choose; every bad request refused', async () => {
    const c = new Client(base);
    const other = new Client(base);
    assert.equal((await c.post('/api/games', { opening: 'swap3' })).status, 400);
    assert.equal((await c.post('/api/games', { opening: 'swap2', moves: 'h8' })).status, 400);
    const g = await newGame(c, { mode: 'hvh', opening: 'swap2' });
    assert.equal(g.opening, 'swap2');
    assert.equal(g.phase, 'place3');
    const choose = (cl, choice) => cl.post(`/api/games/${g.id}/choose`, { choice });
    assert.equal((await choose(c, 'black')).status, 409, 'nothing to choose yet');
    for (const p of ['h8', 'h9', 'i9']) assert.equal((await c.post(`/api/games/${g.id}/move`, { point: p })).status, 200);
    let s = (await c.get(`/api/games/${g.id}`)).json;
    assert.equal(s.phase, 'choose');
    assert.equal(s.you_choose, true);
    assert.deepEqual(s.choices, ['black', 'white', 'place2']);
    const early = await c.post(`/api/games/${g.id}/move`, { point: 'a1' });
    assert.equal(early.status, 409);
    assert.equal(early.json.reason, 'choose');
    assert.equal((await c.post(`/api/games/${g.id}/resign`)).status, 409, 'no resignation in the opening');
    assert.equal((await choose(c, 'purple')).status, 400);
    assert.equal((await c.post(`/api/games/${g.id}/choose`, { choice: 3 })).status, 400);
    assert.equal((await choose(other, 'black')).status, 403, 'only the owner chooses');
    assert.equal((await choose(c, 'place2')).status, 200);
    for (const p of ['j10', 'g7']) assert.equal((await c.post(`/api/games/${g.id}/move`, { point: p })).status, 200);
    s = (await c.get(`/api/games/${g.id}`)).json;
    assert.equal(s.phase, 'choose5');
    assert.deepEqual(s.choices, ['black', 'white']);
    assert.equal((await choose(c, 'place2')).status, 409, 'no third choice at five stones');
    const r = await choose(c, 'white');
    assert.equal(r.status, 200);
    assert.equal(r.json.phase, null);
    assert.equal(r.json.your_turn, true);
    assert.equal(r.json.can_undo, false, 'the opening cannot be undone');
  });

  test('hvc undo takes back the computer\'s reply with the human\'s move', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvc', level: 1 });
    await c.post(`/api/games/${g.id}/move`, { point: 'h8' });
    await until(c, g.id, (s) => s.moves.length === 2);
    const r = await c.post(`/api/games/${g.id}/undo`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.moves, []);
    assert.equal(r.json.your_turn, true);
  });

  test('resign: hvc the human loses; 409 once over', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvc', level: 1, human: 'white' });
    await until(c, g.id, (s) => s.moves.length === 1); // the computer opens as black
    const r = await c.post(`/api/games/${g.id}/resign`);
    assert.equal(r.status, 200);
    assert.equal(r.json.over, true);
    assert.equal(r.json.result.reason, 'resign');
    assert.equal(r.json.result.winner, 'black');
    assert.equal((await c.post(`/api/games/${g.id}/resign`)).status, 409);
  });

  test('hint: 202, then the state carries the hint; 409 when no human is to move', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh', moves: 'h8' });
    const ev = await c.events(g.id);
    const r = await c.post(`/api/games/${g.id}/hint`);
    assert.equal(r.status, 202);
    const st = await ev.next('state', (s) => s.hint !== null);
    assert.match(st.hint, /^[a-o]\d+$/);
    ev.close();
    await c.post(`/api/games/${g.id}/resign`);
    assert.equal((await c.post(`/api/games/${g.id}/hint`)).status, 409);
  });

  test('a body over 64 KiB is 413 and changes nothing', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh' });
    const big = JSON.stringify({ point: 'h8', pad: 'x'.repeat(70 * 1024) });
    const r = await c.post(`/api/games/${g.id}/move`, big, { 'content-type': 'application/json' });
    assert.equal(r.status, 413);
    assert.deepEqual((await c.get(`/api/games/${g.id}`)).json.moves, []);
  });

  test('two clients move at once in one game: exactly one move is accepted', async () => {
    for (let round = 0; round < 5; round++) {
      const a = new Client(base);
      const g = await newGame(a, { mode: 'hvh' });
      const b = new Client(base);
      b.cookie = a.cookie; // the same player on two devices
      const [ra, rb] = await Promise.all([
        a.post(`/api/games/${g.id}/move`, { point: 'h8', ply: 0 }),
        b.post(`/api/games/${g.id}/move`, { point: 'i9', ply: 0 }),
      ]);
      assert.deepEqual([ra.status, rb.status].sort(), [200, 409]);
      assert.equal((await a.get(`/api/games/${g.id}`)).json.moves.length, 1);
    }
    // hvc: the second move finds the game moved on (stale, or the computer thinking)
    const a = new Client(base);
    const g = await newGame(a, { mode: 'hvc', level: 1 });
    const [r1, r2] = await Promise.all([
      a.post(`/api/games/${g.id}/move`, { point: 'h8', ply: 0 }),
      a.post(`/api/games/${g.id}/move`, { point: 'c3', ply: 0 }),
    ]);
    assert.deepEqual([r1.status, r2.status].sort(), [200, 409]);
    const st = await until(a, g.id, (s) => s.moves.length === 2);
    assert.ok(['h8', 'c3'].includes(st.moves[0]));
  });

  test('past 512 games in memory the least recently used are let go, and come back from the store', async () => {
    const c = new Client(base);
    const first = await newGame(c, { mode: 'hvh', moves: 'h8i9' });
    const kept = await newGame(c, { mode: 'hvh', moves: 'h8i9h9' });
    for (let i = 0; i < 600; i++) {
      await newGame(c, { mode: 'hvh', moves: i % 2 ? 'a1' : 'o15' });
      if (i % 50 === 0) assert.equal((await c.get(`/api/games/${kept.id}`)).status, 200);
    }
    // the first game was let go long ago: it is read back from the store, whole and playable
    const st = await c.get(`/api/games/${first.id}`);
    assert.equal(st.status, 200);
    assert.deepEqual(st.json.moves, ['h8', 'i9']);
    assert.equal(st.json.owner, true);
    assert.equal((await c.post(`/api/games/${first.id}/move`, { point: 'j10', ply: 2 })).status, 200);
    assert.deepEqual((await c.get(`/api/games/${first.id}`)).json.moves, ['h8', 'i9', 'j10']);
    assert.deepEqual((await c.get(`/api/games/${kept.id}`)).json.moves, ['h8', 'i9', 'h9']);
    assert.equal((await c.post(`/api/games/${kept.id}/move`, { point: 'i10', ply: 3 })).status, 200);
  });
});

describe('malformed input', () => {
  test('garbage of every kind to every route: a 4xx JSON error, the server lives, the game is unchanged', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh', moves: 'h8i9' });
    const bodies = ['', 'null', '"x"', '[]', '{', '{"point":', '\u0000', '{"point":"h8\u0000"}',
      '{"point":"\ud800"}', '\xff\xfe', '{"point":{"a":1}}', '{"point":["h8"]}', '{"point":"h8","point":"i8"}',
      '{"moves":"' + 'h8'.repeat(500) + '"}', '{"size":1e309}', '{"size":-1}', '{"level":99999999999999999999}',
      '{"text":null}', '{"nbest":1.5}', '{"time_ms":"1000"}', '['.repeat(5000) + ']'.repeat(5000),
      '{"moves":[' + '"h8",'.repeat(600) + '"h8"]}', '{"mode":"hvh","rule":"renju","moves":"' + 'a'.repeat(3000) + '"}'];
    const routes = ['/api/games', `/api/games/${g.id}/move`, '/api/analyze', '/api/records',
      '/api/games/99999999999999999999999/move', '/api/games/-1/move', '/api/games/1.5', '/api/games/%00'];
    for (const route of routes) {
      for (const body of bodies) {
        const r = await c.post(route, body, { 'content-type': 'application/json' });
        assert.ok(r.status >= 200 && r.status < 500, `${route} ${body.slice(0, 40)} -> ${r.status}`);
        if (r.status >= 400) assert.equal(typeof r.json?.error, 'string', `${route} ${body.slice(0, 40)}`);
      }
    }
    for (const path of ['/api/games/1/record?format=', '/api/games?limit=99999999999999999999', '/..%2f..%2fetc/passwd',
      '/api/games/1/events/x', '/api//games', '/%ff', '/api/games/' + '9'.repeat(300)]) {
      const r = await c.get(path);
      assert.ok(r.status >= 400 && r.status < 500, `${path} -> ${r.status}`);
    }
    const st = await c.get(`/api/games/${g.id}`);
    assert.deepEqual(st.json.moves, ['h8', 'i9']);
    assert.equal((await c.get('/api/config')).status, 200);
  });
});

describe('records', () => {
  test('download PSQ, SGF and a move string; gomoku import accepts the PSQ', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvh', moves: 'h8a1i8a2j8a3k8a4' });
    await c.post(`/api/games/${g.id}/move`, { point: 'l8' });
    const psq = await c.get(`/api/games/${g.id}/record?format=psq`);
    assert.equal(psq.status, 200);
    assert.match(psq.text, /^Piskvorky 15x15/);
    assert.match(psq.headers.get('content-disposition'), new RegExp(`gomoku-${g.id}\\.psq`));
    const sgf = await c.get(`/api/games/${g.id}/record?format=sgf`);
    assert.match(sgf.text, /^\(;GM\[4\]/);
    const moves = await c.get(`/api/games/${g.id}/record?format=moves`);
    assert.equal(moves.text.trim(), 'h8a1i8a2j8a3k8a4l8');
    assert.equal((await c.get(`/api/games/${g.id}/record`)).text, psq.text);
    assert.equal((await c.get(`/api/games/${g.id}/record?format=pdf`)).status, 400);
    assert.equal((await c.get('/api/games/999999/record')).status, 404);
    const file = tempDb().replace(/gomoku\.db$/, 'game.psq');
    writeFileSync(file, psq.text);
    const out = execFileSync(BIN, ['import', '--db', tempDb(), file]).toString();
    assert.match(out, /\d+/);
  });

  test('POST /api/records reads PSQ, SGF and move strings; illegal records are 400 with the reason', async () => {
    const c = new Client(base);
    const psq = 'Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n-1\n';
    let r = await c.post('/api/records', psq, { 'content-type': 'text/plain' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.format, 'psq');
    assert.equal(r.json.moves.length, 2);
    r = await c.post('/api/records', { text: '(;GM[4]FF[4]SZ[15]RU[renju];B[hh];W[ii])', rule: 'freestyle' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.format, 'sgf');
    assert.equal(r.json.rule, 'renju');
    r = await c.post('/api/records', { text: 'h8a1i8a2j8a3k8a4l8', size: 15 });
    assert.equal(r.json.result.winner, 'black');
    for (const [body, re] of [
      [{ text: 'h8h8' }, /./], [{ text: 'hello' }, /./], [{ text: 'h8a1i8a2j8a3k8a4l8a5' }, /after the end/],
      [{ text: 'h7a1h9a3g8a5i8a7h8', rule: 'renju' }, /forbidden/], [{ text: 42 }, /text/],
    ]) {
      const bad = await c.post('/api/records', body);
      assert.equal(bad.status, 400, JSON.stringify(body));
      assert.match(bad.json.error, re);
    }
    assert.equal((await c.post('/api/records', 'x', { 'content-type': 'image/png' })).status, 415);
    // a record whose bytes are not UTF-8 (here read as the players' names): still a JSON answer,
    // each bad byte a '?' (found by fuzz_http: the server closed the connection without a reply)
    const raw = Buffer.from('Piskvorky 15x15, 11:11, 0\n8,8,0\x03\n9,\xc7\xd3\xcf\xf7-1\n', 'latin1');
    const odd = await fetch(base + '/api/records', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: raw });
    assert.equal(odd.status, 200);
    assert.equal(JSON.parse(await odd.text()).white, '9,????-1');
  });
});

describe('analysis and scoreboard', () => {
  test('POST /api/analyze: best move, eval, pv and the N best lines; 400 for bad positions', async () => {
    const c = new Client(base);
    const r = await c.post('/api/analyze', { rule: 'freestyle', size: 15, moves: 'h8i9h9', nbest: 3, time_ms: 200 });
    assert.equal(r.status, 200, r.text);
    assert.match(r.json.best, /^[a-o]\d+$/);
    assert.equal(typeof r.json.eval, 'string');
    assert.ok(r.json.pv.length >= 1);
    assert.equal(r.json.pv[0], r.json.best);
    assert.equal(r.json.lines.length, 3);
    // a win in one is found
    const win = await c.post('/api/analyze', { moves: 'h8a1i8a2j8a3k8a4', time_ms: 200 });
    assert.ok(['g8', 'l8'].includes(win.json.best), win.text);
    for (const body of [{ moves: 'h8h8' }, { moves: 'h8a1i8a2j8a3k8a4l8' }, { nbest: 9 }, { time_ms: 10 }, { rule: 'x' }])
      assert.equal((await c.post('/api/analyze', body)).status, 400, JSON.stringify(body));
  });

  test('the terminal commands share the file while the server runs: an import shows up at once', async () => {
    const c = new Client(base);
    const before = (await c.get('/api/stats')).json.total;
    const file = tempDb().replace(/gomoku\.db$/, 'won.txt');
    writeFileSync(file, 'h8a1i8a2j8a3k8a4l8\n');
    const id = Number(execFileSync(BIN, ['import', '--db', db, file]).toString().match(/\d+/)[0]);
    const st = await c.get(`/api/games/${id}`);
    assert.equal(st.status, 200);
    assert.equal(st.json.over, true);
    assert.equal(st.json.owner, false);
    assert.equal(st.json.result.winner, 'black');
    assert.equal((await c.get('/api/stats')).json.total, before + 1);
    assert.equal((await c.post(`/api/games/${id}/undo`)).status, 403); // nobody's browser owns it
  });

  test('GET /api/stats counts a finished game, as gomoku stats does from the same file', async () => {
    const c = new Client(base);
    const before = (await c.get('/api/stats')).json.total;
    const g = await newGame(c, { mode: 'hvc', level: 1 });
    await c.post(`/api/games/${g.id}/resign`);
    const st = await c.get('/api/stats');
    assert.equal(st.status, 200);
    assert.equal(st.json.total, before + 1);
    const line = st.json.lines.find((l) => l.mode === 'human-computer' && l.level === 1);
    assert.ok(line.losses >= 1);
    const cli = execFileSync(BIN, ['stats', '--db', db, '--recent', '0']).toString();
    assert.match(cli, new RegExp(`\\b${line.games}\\b`));
  });
});

describe('server process', () => {
  test('restart in the middle of a game: the game continues, owned by the same browser', async () => {
    const mydb = tempDb();
    let s = await startServer(mydb, ['--engines', '1']);
    const c = new Client(s.url);
    const h = await (async () => { const r = await c.post('/api/games', { mode: 'hvh', moves: 'h8i9' }); return r.json; })();
    const v = await (async () => { const r = await c.post('/api/games', { mode: 'hvc', level: 1 }); return r.json; })();
    assert.equal((await c.post(`/api/games/${v.id}/move`, { point: 'h8' })).status, 200);
    assert.equal(await s.stop('SIGTERM'), 0);
    s = await startServer(mydb, ['--engines', '1']);
    c.base = s.url;
    const st = await c.get(`/api/games/${h.id}`);
    assert.deepEqual(st.json.moves, ['h8', 'i9']);
    assert.equal(st.json.owner, true);
    const r = await c.post(`/api/games/${h.id}/move`, { point: 'j10', ply: 2 });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.moves, ['h8', 'i9', 'j10']);
    // the computer game: whatever was saved, the computer answers and the human moves on
    const sv = await until(c, v.id, (x) => x.your_turn);
    assert.equal(sv.moves.length, 2);
    const free = ['a1', 'o15'].find((p) => !sv.moves.includes(p));
    assert.equal((await c.post(`/api/games/${v.id}/move`, { point: free })).status, 200);
    await until(c, v.id, (x) => x.moves.length === 4);
    // killed outright, the game is still there
    await s.stop('SIGKILL');
    s = await startServer(mydb, ['--engines', '1']);
    c.base = s.url;
    assert.equal((await c.get(`/api/games/${h.id}`)).json.moves.length, 3);
    assert.equal(await s.stop(), 0);
    assert.doesNotMatch(s.stderr(), /Sanitizer|runtime error/);
  });

  test('--threads N: an analysis searches with N threads (Lazy SMP), one without it, all under SCHED_IDLE', async () => {
    // the scheduling policy of each thread: field 41 of /proc/PID/task/TID/stat (5: SCHED_IDLE)
    // A thread may end between the listing and the read: its task is gone, and not counted.
    const policies = (pid) => readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      let stat;
      try {
        stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      } catch (e) {
        if (e.code === 'ENOENT' || e.code === 'ESRCH') return [];
        throw e;
      }
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38])];
    });
    const during = async (extra) => {
      const s = await startServer(tempDb(), ['--engines', '1', '--quiet', ...extra]);
      const idle = policies(s.proc.pid);
      assert.equal(idle.filter((p) => p === 5).length, 1, 'the engine worker waits under SCHED_IDLE');
      const c = new Client(s.url);
      const search = c.post('/api/analyze', { moves: 'h8i9h9', time_ms: 1500 });
      // sampled for as long as the search runs (a loaded machine may start it late)
      let running = true;
      const ended = () => { running = false; };
      search.then(ended, ended);
      let most = 0;
      let mostIdle = 0;
      while (running) {
        await new Promise((res) => setTimeout(res, 50));
        const now = policies(s.proc.pid);
        most = Math.max(most, now.length - idle.length);
        mostIdle = Math.max(mostIdle, now.filter((p) => p === 5).length - 1);
      }
      assert.equal((await search).status, 200);
      assert.equal(await s.stop(), 0);
      assert.equal(mostIdle, most, 'every thread a search starts runs under SCHED_IDLE too');
      return most;
    };
    const one = await during([]);
    const three = await during(['--threads', '3']);
    assert.equal(three - one, 2, `threads started by a search: ${one} and ${three}`); // two helpers
  });

  test('a full engine pool answers 503 while requests that need no engine keep being answered', async () => {
    // three clients (named by X-Forwarded-For): one client may hold only two places itself
    const s = await startServer(tempDb(), ['--engines', '1', '--queue', '1', '--quiet', '--trust-proxy']);
    const c = new Client(s.url);
    const g = await newGame(c, { mode: 'hvh' });
    const long = { moves: 'h8', time_ms: 3000 };
    const from = (client) => ({ 'x-forwarded-for': client });
    const p1 = c.post('/api/analyze', long, from('10.0.0.1'));
    const p2 = c.post('/api/analyze', long, from('10.0.0.2'));
    await new Promise((res) => setTimeout(res, 300));
    const busy = await c.post('/api/analyze', long, from('10.0.0.3'));
    assert.equal(busy.status, 503);
    assert.equal(busy.json.error, 'the server is busy');
    const hint = await c.post(`/api/games/${g.id}/hint`);
    assert.equal(hint.status, 503);
    const hvc = await c.post('/api/games', { mode: 'hvc', human: 'white', level: 1 });
    assert.equal(hvc.status, 503);
    const t0 = Date.now();
    assert.equal((await c.get(`/api/games/${g.id}`)).status, 200);
    assert.equal((await c.post(`/api/games/${g.id}/move`, { point: 'h8' })).status, 200);
    assert.ok(Date.now() - t0 < 1000, 'state and hvh moves are answered while the engines are busy');
    assert.equal((await p1).status, 200);
    assert.equal((await p2).status, 200);
    assert.equal(s.stderr().match(/^(GET|POST) /m), null, '--quiet: no access log');
    assert.equal(await s.stop(), 0);
    assert.doesNotMatch(s.stderr(), /Sanitizer|runtime error/);
  });

  test('access log, a taken port, and a clean stop on SIGINT', async () => {
    const s = await startServer(tempDb());
    const c = new Client(s.url);
    await c.get('/api/config');
    await c.get('/api/games/424242');
    await new Promise((res) => setTimeout(res, 100));
    assert.match(s.stderr(), /^GET \/api\/config 200 \d+\.\d ms$/m);
    assert.match(s.stderr(), /^GET \/api\/games\/424242 404 /m);
    let out = '';
    try {
      execFileSync(BIN, ['serve', '--listen', `127.0.0.1:${s.port}`, '--db', tempDb()], { stdio: 'pipe', timeout: 10000 });
    } catch (e) {
      out = e.stderr.toString();
      assert.equal(e.status, 1);
    }
    assert.match(out, /already in use/);
    assert.equal(await s.stop('SIGINT'), 0);
    assert.doesNotMatch(s.stderr(), /Sanitizer|runtime error/);
  });

  test('bad options are refused with a message (exit status 2)', () => {
    for (const args of [['--listen', 'nonsense'], ['--listen', '127.0.0.1:70000'], ['--engines', '0'],
      ['--threads', '0'], ['--threads', '65'], ['--threads', '99999999999999999999'],
      ['--lang', 'fr'], ['--frobnicate'], ['extra']]) {
      let status = 0;
      let err = '';
      try {
        execFileSync(BIN, ['serve', ...args, '--db', tempDb()], { stdio: 'pipe', timeout: 10000 });
      } catch (e) {
        status = e.status;
        err = e.stderr.toString();
      }
      assert.equal(status, 2, args.join(' '));
      assert.match(err, /serve/, args.join(' '));
    }
    const help = execFileSync(BIN, ['help', 'serve']).toString();
    assert.match(help, /--listen HOST:PORT/);
  });

  test('the shared server stops cleanly on SIGTERM with open event streams (no sanitizer report)', async () => {
    const c = new Client(base);
    const g = await newGame(c, { mode: 'hvc', level: 1 });
    const ev = await c.events(g.id);
    await ev.next('state');
    await c.post(`/api/games/${g.id}/move`, { point: 'h8' });
    // the analysis may be answered or cut off by the stop, but must not hang the stop
    const waiting = c.post('/api/analyze', { moves: 'h8', time_ms: 2000 }).catch(() => ({ status: 0 }));
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(await srv.stop('SIGTERM'), 0);
    const w = await waiting;
    assert.ok([0, 200, 503].includes(w.status));
    ev.close();
    assert.match(srv.stderr(), /stopping \(SIGTERM\)/);
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/);
  });
});
