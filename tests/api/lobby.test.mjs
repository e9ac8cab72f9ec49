// lobby.test.mjs: the lobby of `gomoku serve` (issue 30 item 2, docs/lobby.md) against the real
// server and a real SQLite file: a seek posted reaches the other players' streams and is
// accepted into a room both hold a seat of; cancelling; a seek vanishes when its poster leaves
// (stream closed) and after its time (the clock moved in the stopped server's file); the
// per-client limit of open seeks; quick pairing ("play now") pairs two players of one time
// control and leaves another waiting; the games in play are listed live; names shown as text;
// cross-site requests refused. Run by tests/api/run.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { Browser } from './roomclient.mjs';
import { startServer, tempDb } from './server.mjs';

const DB = tempDb();
const ARGS = ['--engines', '1', '--quiet', '--join-limit', '1000', '--write-limit', '10000'];
let srv;

before(async () => { srv = await startServer(DB, ARGS); });
after(async () => {
  if (srv && srv.proc.exitCode === null) {
    assert.equal(await srv.stop(), 0);
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/);
  }
});

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

/** A player in the lobby: a browser with its lobby stream open. */
async function enter(base = srv.url) {
  const b = new Browser(base);
  const s = await b.events('/api/lobby/events');
  assert.equal(s.status, 200);
  await s.until((j, e) => e.name === 'lobby');
  return { b, s };
}

const SEEK = { name: 'Ann', rule: 'freestyle', size: 15, clock: '5+3', color: 'random' };

describe('lobby', () => {
  test('a seek reaches the other players and is accepted into a room both hold a seat of', async () => {
    const ann = await enter();
    const bob = await enter();
    const eve = await enter();
    const r = await ann.b.post('/api/lobby/seeks', { ...SEEK, color: 'white' });
    assert.equal(r.status, 201, r.text);
    const id = r.json.id;
    assert.equal(r.json.name, 'Ann');
    assert.equal(r.json.clock, '5+3');
    assert.equal(r.json.rating, 1500);
    assert.equal(r.json.code, undefined, 'the room code is not shown');
    const seen = await bob.s.until((j, e) => e.name === 'seek' && j.id === id);
    assert.equal(seen.json.color, 'white');
    assert.equal(seen.json.rated, false);
    // a fresh stream lists it; its poster's says it is its own
    const late = await enter();
    const start = late.s.events.find((e) => e.name === 'lobby').json;
    assert.ok(start.seeks.some((k) => k.id === id));
    const again = await ann.b.events('/api/lobby/events');
    assert.deepEqual((await again.until((j, e) => e.name === 'lobby')).json.you.seeks, [id]);
    again.close();
    // Ann cannot take her own; Bob takes it
    assert.equal((await ann.b.post(`/api/lobby/seeks/${id}/accept`, { name: 'Ann' })).status, 409);
    const a = await bob.b.post(`/api/lobby/seeks/${id}/accept`, { name: 'Bob' });
    assert.equal(a.status, 200, a.text);
    assert.equal(a.json.phase, 'playing');
    assert.equal(a.json.you, 1);
    const code = a.json.code;
    assert.equal(a.json.seats[0].name, 'Ann');
    assert.equal(a.json.seats[0].color, 'white', 'the poster plays the colour it asked for');
    assert.equal(a.json.clock_ms, 300000);
    // Ann is told where, and holds seat 0 with the cookie her post gave her
    const p = await ann.s.until((j, e) => e.name === 'paired' && j.id === id);
    assert.equal(p.json.code, code);
    const mine = await ann.b.get(`/api/rooms/${code}`);
    assert.equal(mine.json.you, 0);
    await eve.s.until((j, e) => e.name === 'unseek' && j.id === id);
    assert.ok(!eve.s.events.some((e) => e.name === 'paired'), 'only the poster is told the room');
    assert.equal((await eve.b.post(`/api/lobby/seeks/${id}/accept`, { name: 'Eve' })).status, 409, 'taken once');
    // they play: black (Bob) first
    assert.equal((await bob.b.post(`/api/rooms/${code}/move`, { point: 'h8' })).status, 200);
    assert.equal((await ann.b.post(`/api/rooms/${code}/move`, { point: 'h9' })).status, 200);
    // the game is listed for everyone to watch, live
    const g = await eve.s.until((j, e) => e.name === 'games' && j.games.some((x) => x.code === code), 8000);
    const game = g.json.games.find((x) => x.code === code);
    assert.equal(game.black, 'Bob');
    assert.equal(game.white, 'Ann');
    for (const x of [ann, bob, eve, late]) x.s.close();
  });

  test('bad settings are 400, a rated seek needs an account, cancelling is the poster\'s', async () => {
    const ann = await enter();
    const bob = await enter();
    for (const bad of [{ ...SEEK, color: 'green' }, { ...SEEK, rated: 'yes' }, { ...SEEK, clock: '0+5' },
      { ...SEEK, size: 99 }, { ...SEEK, rule: 'chess' }, { ...SEEK, name: '' }, { ...SEEK, name: 'a\u202Eb' }]) {
      const r = await ann.b.post('/api/lobby/seeks', bad);
      assert.equal(r.status, 400, `${JSON.stringify(bad)}: ${r.text}`);
    }
    assert.equal((await ann.b.post('/api/lobby/seeks', { ...SEEK, rated: true })).status, 403);
    const html = await ann.b.post('/api/lobby/seeks', { ...SEEK, name: '<b>x</b><img src=x>' });
    assert.equal(html.status, 201);
    const seen = await bob.s.until((j, e) => e.name === 'seek' && j.id === html.json.id);
    assert.equal(seen.json.name, '<b>x</b><img src=x>', 'text, escaped only as JSON');
    assert.equal((await bob.b.post(`/api/lobby/seeks/${html.json.id}/cancel`)).status, 404, 'not Bob\'s');
    const c = await ann.b.post(`/api/lobby/seeks/${html.json.id}/cancel`);
    assert.equal(c.status, 200, c.text);
    await bob.s.until((j, e) => e.name === 'unseek' && j.id === html.json.id);
    assert.equal((await bob.b.post(`/api/lobby/seeks/${html.json.id}/accept`, { name: 'Bob' })).status, 409);
    assert.equal((await bob.b.post('/api/lobby/seeks/abc/accept', { name: 'Bob' })).status, 404);
    ann.s.close();
    bob.s.close();
  });

  test('a seek vanishes when its poster leaves the lobby', async () => {
    const ann = await enter();
    const bob = await enter();
    const r = await ann.b.post('/api/lobby/seeks', SEEK);
    assert.equal(r.status, 201);
    await bob.s.until((j, e) => e.name === 'seek' && j.id === r.json.id);
    ann.s.close();
    const t0 = Date.now();
    await bob.s.until((j, e) => e.name === 'unseek' && j.id === r.json.id, 5000);
    assert.ok(Date.now() - t0 < 4000);
    assert.equal((await bob.b.post(`/api/lobby/seeks/${r.json.id}/accept`, { name: 'Bob' })).status, 409);
    bob.s.close();
  });

  test('quick pairing pairs two players of one time control; another waits; guests cannot play rated', async () => {
    const ann = await enter();
    const bob = await enter();
    const cid = await enter();
    const w1 = await ann.b.post('/api/lobby/play', { name: 'Ann', clock: '5+3' });
    assert.equal(w1.status, 202, w1.text);
    const w2 = await bob.b.post('/api/lobby/play', { name: 'Bob', clock: '10+5' });
    assert.equal(w2.status, 202, w2.text);
    assert.ok(!cid.s.events.some((e) => e.name === 'seek' && [w1.json.waiting, w2.json.waiting].includes(e.json.id)),
      'a quick-pairing entry is not listed');
    assert.equal((await cid.b.post('/api/lobby/play', { name: 'Cid', clock: '5+3', rated: true })).status, 403);
    const p = await cid.b.post('/api/lobby/play', { name: 'Cid', clock: '5+3' });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.json.phase, 'playing');
    assert.deepEqual(p.json.seats.map((x) => x.name), ['Ann', 'Cid']);
    assert.equal(p.json.clock_ms, 300000);
    const paired = await ann.s.until((j, e) => e.name === 'paired' && j.id === w1.json.waiting);
    assert.equal(paired.json.code, p.json.code);
    assert.equal((await ann.b.get(`/api/rooms/${p.json.code}`)).json.you, 0);
    await sleep(300);
    assert.ok(!bob.s.events.some((e) => e.name === 'paired'), 'Bob (10+5) still waits');
    // Bob's own second ask does not pair him with himself
    const self = await bob.b.post('/api/lobby/play', { name: 'Bob', clock: '10+5' });
    assert.equal(self.status, 202, self.text);
    for (const id of [w2.json.waiting, self.json.waiting]) // this address's open seeks: none left
      assert.equal((await bob.b.post(`/api/lobby/seeks/${id}/cancel`)).status, 200);
    for (const x of [ann, bob, cid]) x.s.close();
  });

  test('accounts: a rated seek opens a rated room; after the game the posters show their new ratings', async () => {
    const signup = async (name) => {
      const x = await enter();
      const r = await x.b.post('/api/account/signup', { name, password: `${name}-password` });
      assert.equal(r.status, 201, r.text);
      return x;
    };
    const ann = await signup('LobbyAnn');
    const bob = await signup('LobbyBob');
    const seek = await ann.b.post('/api/lobby/seeks', { clock: '5+3', color: 'black', rated: true, name: 'ignored' });
    assert.equal(seek.status, 201, seek.text);
    assert.equal(seek.json.name, 'LobbyAnn', 'an account plays under its name');
    assert.equal(seek.json.account, true);
    assert.equal(seek.json.rating, 1500, 'no rated game yet');
    assert.equal((await new Browser(srv.url).post(`/api/lobby/seeks/${seek.json.id}/accept`, { name: 'Guest' })).status, 403);
    const room = await bob.b.post(`/api/lobby/seeks/${seek.json.id}/accept`, {});
    assert.equal(room.status, 200, room.text);
    assert.equal(room.json.rated, true);
    const code = room.json.code;
    const five = ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'];
    for (let i = 0; i < five.length; i++) {
      const r = await (i % 2 ? bob : ann).b.post(`/api/rooms/${code}/move`, { point: five[i] });
      assert.equal(r.status, 200, `${five[i]}: ${r.text}`);
    }
    const again = await ann.b.post('/api/lobby/seeks', { clock: '5+3', rated: true });
    assert.ok(again.json.rating > 1500, `the winner's rating went up: ${again.json.rating}`);
    const loser = await bob.b.post('/api/lobby/play', { clock: '10+5', rated: true });
    assert.equal(loser.status, 202, loser.text);
    const b2 = await bob.b.post('/api/lobby/seeks', { clock: '5+3' });
    assert.ok(b2.json.rating < 1500, `the loser's went down: ${b2.json.rating}`);
    for (const [x, id] of [[ann, again.json.id], [bob, loser.json.waiting], [bob, b2.json.id]])
      assert.equal((await x.b.post(`/api/lobby/seeks/${id}/cancel`)).status, 200);
    ann.s.close();
    bob.s.close();
  });

  test('one client may have 3 seeks open; new cookies do not reset it', async () => {
    const own = await startServer(tempDb(), ARGS);
    try {
      const ann = await enter(own.url);
      for (let i = 0; i < 3; i++) assert.equal((await ann.b.post('/api/lobby/seeks', SEEK)).status, 201);
      const r = await ann.b.post('/api/lobby/seeks', SEEK);
      assert.equal(r.status, 429, r.text);
      const other = new Browser(own.url);
      assert.equal((await other.post('/api/lobby/seeks', { ...SEEK, name: 'Zed' })).status, 429);
      assert.equal((await other.post('/api/lobby/play', { name: 'Zed', clock: '30+0' })).status, 429);
      const ids = ann.s.events.filter((e) => e.name === 'seek').map((e) => e.json.id);
      assert.equal((await ann.b.post(`/api/lobby/seeks/${ids[0]}/cancel`)).status, 200);
      assert.equal((await other.post('/api/lobby/seeks', { ...SEEK, name: 'Zed' })).status, 201);
      ann.s.close();
    } finally {
      assert.equal(await own.stop(), 0);
    }
  });

  test('a seek goes after its time, and a server restart keeps the others', async () => {
    const db = tempDb();
    let own = await startServer(db, ARGS);
    try {
      const ann = new Browser(own.url); // posts without a stream: only time removes it
      const old = await ann.post('/api/lobby/seeks', SEEK);
      const young = await ann.post('/api/lobby/seeks', { ...SEEK, clock: '10+5' });
      assert.equal(old.status, 201);
      assert.equal(young.status, 201);
      await own.stop();
      execFileSync('sqlite3', [db, `UPDATE lobby_seeks SET expires_ms = 1 WHERE id = ${old.json.id}`]);
      own = await startServer(db, ARGS);
      await sleep(1500);
      const bob = await enter(own.url);
      const ids = bob.s.events.find((e) => e.name === 'lobby').json.seeks.map((k) => k.id);
      assert.ok(!ids.includes(old.json.id), 'expired');
      assert.ok(ids.includes(young.json.id), 'kept');
      bob.s.close();
    } finally {
      assert.equal(await own.stop(), 0);
    }
  });

  test('cross-site: a post from another origin and the stream opened by another site are 403', async () => {
    const ann = new Browser(srv.url);
    const r = await ann.req('POST', '/api/lobby/seeks', SEEK, { origin: 'http://evil.example' });
    assert.equal(r.status, 403);
    const s = await fetch(`${srv.url}/api/lobby/events`, { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } });
    assert.equal(s.status, 403);
    await s.body?.cancel();
  });
});
