// rooms.test.mjs: the online rooms of `gomoku serve` (issue 9, docs/http-api.md "Online
// rooms") against the real server process and a real SQLite file: two players and a spectator
// to the end, the seat, turn and rate attacks with their statuses, simultaneous moves, resuming
// an event stream with Last-Event-ID, a server restart in the middle of a game, and a flag
// that falls while no request is in flight. Run by tests/api/run.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { Browser, ROOM_SERVER_ARGS } from './roomclient.mjs';
import { startServer, tempDb } from './server.mjs';

let srv;

before(async () => { srv = await startServer(tempDb(), ROOM_SERVER_ARGS); });
after(async () => {
  if (srv && srv.proc.exitCode === null) {
    assert.equal(await srv.stop(), 0);
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/);
  }
});

const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

/** Creates a room for a new browser and has a second one join; returns both and the code. */
async function twoPlayers(base, create = {}) {
  const ann = new Browser(base);
  const bob = new Browser(base);
  const c = await ann.post('/api/rooms', { name: 'Ann', black: 'me', ...create });
  assert.equal(c.status, 201, c.text);
  const code = c.json.code;
  const j = await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' });
  assert.equal(j.status, 200, j.text);
  assert.equal(j.json.you, 1);
  assert.equal(j.json.phase, 'playing');
  return { ann, bob, code };
}

const BLACK_FIVE = ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'];

describe('online rooms', () => {
  test('create: a 12-character code and an HttpOnly seat cookie of 128 bits; bad settings are 400', async () => {
    const ann = new Browser(srv.url);
    const r = await ann.post('/api/rooms', { name: 'Ann', rule: 'renju', size: 15, black: 'friend', clock: '5+3' });
    assert.equal(r.status, 201, r.text);
    assert.match(r.json.code, /^[23456789A-HJ-NP-Z]{12}$/);
    const set = r.headers.getSetCookie().find((c) => c.startsWith(`gmk_seat_${r.json.code}=`));
    assert.ok(set, 'a seat cookie');
    assert.match(set, /^gmk_seat_[A-Z0-9]+=[0-9a-f]{32};/);
    assert.match(set, /HttpOnly/);
    assert.match(set, /SameSite=Strict/);
    assert.equal(r.json.you, 0);
    assert.equal(r.json.phase, 'waiting');
    assert.equal(r.json.seats[0].color, 'white', 'the friend plays black');
    assert.equal(r.json.clock_ms, 300000);
    assert.equal(r.json.increment_ms, 3000);
    // a typed code in any case, with dashes, finds the room
    const typed = `${r.json.code.slice(0, 4).toLowerCase()}-${r.json.code.slice(4)}`;
    assert.equal((await new Browser(srv.url).get(`/api/rooms/${typed}`)).json.code, r.json.code);
    for (const bad of [
      {}, { name: '' }, { name: 'x'.repeat(25) }, { name: 'a\u202Eb' }, { name: 'Ann', rule: 'go' },
      { name: 'Ann', size: 3 }, { name: 'Ann', black: 'maybe' }, { name: 'Ann', clock: '500+0' },
      { name: 'Ann', clock: 5 },
    ]) {
      const b = await new Browser(srv.url).post('/api/rooms', bad);
      assert.equal(b.status, 400, `${JSON.stringify(bad)}: ${b.text}`);
      assert.ok(b.json.error);
      assert.equal(b.headers.getSetCookie().length, 0, 'no cookie for a refused room');
    }
    assert.equal((await ann.get('/api/rooms/ZZZZZZZZZZZZ')).status, 404);
    assert.equal((await ann.get('/api/rooms/nonsense!')).status, 404);
    assert.equal((await ann.get(`/api/rooms/${r.json.code}/nothing`)).status, 404);
    assert.equal((await ann.get(`/api/rooms/${r.json.code}/move`)).status, 405);
  });

  test('two players and a spectator play to the end; all three see the same final position', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    const eve = new Browser(srv.url);
    const watch = await eve.post(`/api/rooms/${code}/join`, { name: 'Eve' });
    assert.equal(watch.status, 200);
    assert.equal(watch.json.you, -1, 'the third person watches');
    assert.equal(watch.headers.getSetCookie().length, 0, 'a spectator gets no seat cookie');
    const sa = await ann.stream(code);
    const sb = await bob.stream(code);
    const se = await eve.stream(code);
    await se.until((j, e) => e.name === 'state');
    await sa.until((j) => j.kind === 'connection' && j.seat === 1 && j.count === 1);
    await sa.until((j, e) => e.name === 'spectators' && j.count === 1);
    const players = [ann, bob];
    for (let i = 0; i < BLACK_FIVE.length; i++) {
      const r = await players[i % 2].post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[i], ply: i });
      assert.equal(r.status, 200, r.text);
    }
    for (const s of [sa, sb, se]) {
      const over = await s.until((j) => j.kind === 'over');
      assert.equal(over.json.outcome, 'black wins');
      assert.equal(over.json.reason, 'five');
      const moves = s.events.filter((e) => e.json.kind === 'moved').map((e) => e.json.point);
      const first = s.events[0].json.moves ?? [];
      assert.deepEqual([...first, ...moves], BLACK_FIVE);
    }
    const finals = await Promise.all([ann, bob, eve].map((b) => b.get(`/api/rooms/${code}`)));
    for (const f of finals) {
      assert.deepEqual(f.json.moves, BLACK_FIVE);
      assert.equal(f.json.phase, 'over');
      assert.equal(f.json.result.outcome, 'black wins');
      assert.equal(f.json.result.line.length, 5);
    }
    assert.deepEqual(finals.map((f) => f.json.you), [0, 1, -1]);
    // the game is in the list and the scoreboard, by mode and by player name
    const list = await eve.get('/api/games');
    const g = list.json.games.find((x) => x.id === finals[0].json.game_id);
    assert.equal(g.mode, 'online');
    assert.equal(g.black, 'Ann');
    assert.equal(g.white, 'Bob');
    const stats = await eve.get('/api/stats');
    assert.ok(stats.json.lines.some((l) => l.mode === 'online' && l.games >= 1));
    assert.ok(stats.json.online_players.some((p) => p.name === 'Ann' && p.wins >= 1));
    // a rematch, colours swapped
    assert.equal((await eve.post(`/api/rooms/${code}/rematch`)).status, 403);
    assert.equal((await ann.post(`/api/rooms/${code}/rematch`)).json.rematch_by, 'black');
    const re = await bob.post(`/api/rooms/${code}/rematch`);
    assert.equal(re.json.phase, 'playing');
    assert.equal(re.json.seats[0].color, 'white');
    assert.equal(re.json.to_move, 'black');
    assert.equal((await bob.post(`/api/rooms/${code}/move`, { point: 'h8' })).status, 200);
    for (const s of [sa, sb, se]) s.close();
  });

  test('attacks: no seat 403, out of turn 409, taken point 409, bad bodies 400; nothing changes', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    const mallory = new Browser(srv.url);
    const forged = new Browser(srv.url);
    forged.jar.set(`gmk_seat_${code}`, '0123456789abcdef0123456789abcdef');
    const before = (await ann.get(`/api/rooms/${code}`)).json;
    for (const who of [mallory, forged]) {
      for (const [what, body] of [['move', { point: 'h8' }], ['resign', {}], ['draw', {}],
        ['draw-answer', { accept: true }], ['undo', {}], ['undo-answer', { accept: true }],
        ['claim', {}], ['rematch', {}]]) {
        const r = await who.post(`/api/rooms/${code}/${what}`, body);
        assert.equal(r.status, 403, `${what}: ${r.text}`);
        assert.ok(r.json.error);
      }
    }
    assert.equal((await bob.post(`/api/rooms/${code}/move`, { point: 'h8' })).status, 409, 'white first');
    assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'h8' })).status, 200);
    assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'h9' })).status, 409, 'twice');
    const taken = await bob.post(`/api/rooms/${code}/move`, { point: 'h8' });
    assert.equal(taken.status, 409, 'taken');
    assert.equal((await bob.post(`/api/rooms/${code}/move`, { point: 'h9', ply: 0 })).status, 409, 'stale ply');
    assert.equal((await bob.post(`/api/rooms/${code}/draw-answer`, { accept: true })).status, 409, 'no offer');
    assert.equal((await bob.post(`/api/rooms/${code}/claim`)).status, 409, 'too early to claim');
    for (const body of [{}, { point: 'z99' }, { point: 7 }, { point: 'h9', ply: -1 }, { point: 'h9', ply: 'x' }]) {
      assert.equal((await bob.post(`/api/rooms/${code}/move`, body)).status, 400, JSON.stringify(body));
    }
    assert.equal((await ann.post(`/api/rooms/${code}/draw`)).status, 200);
    assert.equal((await bob.post(`/api/rooms/${code}/draw-answer`, { accept: 'yes' })).status, 400);
    assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: '<b>x</b>' })).json.you, 1, 'a seat holder keeps it');
    const now = (await mallory.get(`/api/rooms/${code}`)).json;
    assert.deepEqual(now.moves, ['h8']);
    assert.equal(now.draw_by, 'black');
    assert.equal(now.seats[1].name, 'Bob', 'the name did not change');
    assert.equal(now.last_seq, before.last_seq + 2, 'only the move and the offer were logged');
  });

  test('creates and joins from one address are limited: 429 past the limit, for good codes and bad', async () => {
    const s = await startServer(tempDb(), ['--join-limit', '4', '--quiet']);
    try {
      const ann = new Browser(s.url);
      const code = (await ann.post('/api/rooms', { name: 'Ann' })).json.code;
      assert.equal((await new Browser(s.url).post('/api/rooms/ZZZZZZZZZZZZ/join', { name: 'G' })).status, 404);
      assert.equal((await new Browser(s.url).post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
      assert.equal((await new Browser(s.url).post(`/api/rooms/${code}/join`, { name: 'Eve' })).status, 200);
      const r = await new Browser(s.url).post('/api/rooms/YYYYYYYYYYYY/join', { name: 'G' });
      assert.equal(r.status, 429, r.text);
      assert.equal((await new Browser(s.url).post(`/api/rooms/${code}/join`, { name: 'Eve' })).status, 429);
      assert.equal((await new Browser(s.url).post('/api/rooms', { name: 'Zed' })).status, 429, 'creating too');
      assert.equal((await ann.get(`/api/rooms/${code}`)).status, 200, 'reading is not limited');
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });

  test('two moves sent at once for the same turn: exactly one is played', async () => {
    for (let round = 0; round < 5; round++) {
      const { ann, bob, code } = await twoPlayers(srv.url);
      const points = ['h8', 'i9', 'j10', 'k11', 'l12', 'g7'];
      const rs = await Promise.all(points.map((p) => ann.post(`/api/rooms/${code}/move`, { point: p, ply: 0 })));
      assert.equal(rs.filter((r) => r.status === 200).length, 1, rs.map((r) => r.status).join());
      assert.equal(rs.filter((r) => r.status === 409).length, points.length - 1);
      // and both players at once for the position they saw: only the side to move plays
      const both = await Promise.all([ann, bob].map((b, i) => b.post(`/api/rooms/${code}/move`, { point: `a${i + 1}`, ply: 1 })));
      assert.deepEqual(both.map((r) => r.status), [409, 200]);
      assert.equal((await ann.get(`/api/rooms/${code}`)).json.moves.length, 2);
    }
  });

  test('an event stream resumes from Last-Event-ID with no gap and no duplicate', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    const eve = new Browser(srv.url);
    let s = await eve.stream(code);
    const st = await s.until((j, e) => e.name === 'state');
    assert.equal(st.id, st.json.last_seq, 'the state carries the id of the last event');
    await ann.post(`/api/rooms/${code}/move`, { point: 'h8' });
    const seen = await s.until((j) => j.kind === 'moved');
    s.close();
    await sleep(100);
    // meanwhile: moves, an undo asked and declined, a draw offered
    await bob.post(`/api/rooms/${code}/move`, { point: 'h9' });
    await ann.post(`/api/rooms/${code}/move`, { point: 'i9' });
    await bob.post(`/api/rooms/${code}/undo`);
    await ann.post(`/api/rooms/${code}/undo-answer`, { accept: false });
    await bob.post(`/api/rooms/${code}/draw`);
    s = await eve.stream(code, seen.id);
    const last = (await ann.get(`/api/rooms/${code}`)).json.last_seq;
    await s.until((j) => j.seq === last);
    const logged = s.events.filter((e) => e.name !== 'spectators'); // the count has no number
    const ids = logged.map((e) => e.id);
    assert.equal(logged[0].name, 'room', 'no state: only the events after the id');
    assert.equal(ids[0], seen.id + 1, 'no gap');
    for (let i = 1; i < ids.length; i++) assert.equal(ids[i], ids[i - 1] + 1, 'in order, no duplicate');
    const kinds = logged.map((e) => e.json.kind);
    for (const k of ['moved', 'undo-asked', 'undo-declined', 'draw-offered']) assert.ok(kinds.includes(k), k);
    s.close();
    // the whole log from 0 is the same log
    const all = await eve.stream(code, 0);
    await all.until((j) => j.seq >= last);
    assert.deepEqual(all.events.map((e) => e.id).slice(0, last), Array.from({ length: last }, (_, i) => i + 1));
    all.close();
    for (const bad of ['-1', 'x', String(last + 1000)]) {
      const r = await fetch(`${srv.url}/api/rooms/${code}/events`, { headers: { 'last-event-id': bad } });
      assert.equal(r.status, 400, bad);
      await r.text();
    }
  });

  test('connection state: a player\'s stream makes the seat connected; closing it, disconnected (not resigned)', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    const se = await new Browser(srv.url).stream(code);
    await se.until((j, e) => e.name === 'state');
    const sb = await bob.stream(code);
    await se.until((j) => j.kind === 'connection' && j.seat === 1 && j.count === 1);
    sb.close();
    const gone = await se.until((j) => j.kind === 'connection' && j.seat === 1 && j.count === 0);
    assert.ok(gone.json.at_ms > 0);
    const st = (await ann.get(`/api/rooms/${code}`)).json;
    assert.equal(st.seats[1].connected, false);
    assert.equal(st.phase, 'playing', 'closing the tab is not resigning');
    se.close();
  });

  test('draw accepted; undo declined then accepted', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    await ann.post(`/api/rooms/${code}/move`, { point: 'h8' });
    await bob.post(`/api/rooms/${code}/move`, { point: 'h9' });
    assert.equal((await bob.post(`/api/rooms/${code}/undo`)).json.undo_by, 'white');
    assert.equal((await bob.post(`/api/rooms/${code}/undo-answer`, { accept: true })).status, 409, 'not one\'s own');
    assert.equal((await ann.post(`/api/rooms/${code}/undo-answer`, { accept: false })).json.moves.length, 2);
    await bob.post(`/api/rooms/${code}/undo`);
    const u = await ann.post(`/api/rooms/${code}/undo-answer`, { accept: true });
    assert.deepEqual(u.json.moves, ['h8']);
    assert.equal(u.json.to_move, 'white');
    await bob.post(`/api/rooms/${code}/draw`);
    const d = await ann.post(`/api/rooms/${code}/draw-answer`, { accept: true });
    assert.equal(d.json.phase, 'over');
    assert.equal(d.json.result.outcome, 'draw');
    assert.equal(d.json.result.reason, 'agreement');
  });

  test('a server restart in the middle of a clocked game: seats, moves and clocks go on', async () => {
    const db = tempDb();
    let s = await startServer(db, ['--quiet']);
    const { ann, bob, code } = await twoPlayers(s.url, { clock: '10+5' });
    await ann.post(`/api/rooms/${code}/move`, { point: 'h8' });
    await bob.post(`/api/rooms/${code}/move`, { point: 'h9' });
    const before = (await ann.get(`/api/rooms/${code}`)).json;
    assert.equal(await s.stop('SIGTERM'), 0);
    s = await startServer(db, ['--quiet']);
    ann.base = s.url;
    bob.base = s.url;
    const st = (await ann.get(`/api/rooms/${code}`)).json;
    assert.deepEqual(st.moves, ['h8', 'h9']);
    assert.equal(st.you, 0, 'the cookie still holds the seat');
    assert.equal(st.white_ms, before.white_ms);
    assert.ok(st.black_ms <= before.black_ms && st.black_ms > before.black_ms - 10000, 'the clock went on');
    assert.equal((await bob.post(`/api/rooms/${code}/move`, { point: 'a1' })).status, 409, 'still black\'s turn');
    assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'i9', ply: 2 })).status, 200);
    // killed outright: nothing that was answered is lost
    await s.stop('SIGKILL');
    s = await startServer(db, ['--quiet']);
    bob.base = s.url;
    assert.deepEqual((await bob.get(`/api/rooms/${code}`)).json.moves, ['h8', 'h9', 'i9']);
    assert.equal((await bob.post(`/api/rooms/${code}/move`, { point: 'j10' })).status, 200);
    assert.equal(await s.stop(), 0);
    assert.doesNotMatch(s.stderr(), /Sanitizer|runtime error/);
  });

  test('a flag falls with no request in flight: the game ends on time at once, on every stream', async () => {
    // One try with `left` ms on white's clock from the moment the stopped server's database is
    // changed; the deadline is measured from there, but what is checked needs the restarted
    // server ready with time to spare. A start slower than that (ASan on a busy machine took
    // 4.4 s) proves nothing either way: the try returns how long the start took, and the test
    // tries again with that much more time. The checks themselves are the same on every try.
    const attempt = async (left) => {
      const db = tempDb();
      let s = await startServer(db, ['--quiet']);
      const { ann, bob, code } = await twoPlayers(s.url, { clock: '1+0' });
      await ann.post(`/api/rooms/${code}/move`, { point: 'h8' });
      assert.equal(await s.stop('SIGTERM'), 0);
      // white's turn began 60 s - left ago (as if that time had passed)
      const start = Date.now() - (60000 - left);
      execFileSync('sqlite3', [db, `UPDATE rooms SET turn_start_ms = ${start} WHERE code = '${code}';`]);
      const asked = Date.now();
      s = await startServer(db, ['--quiet']);
      try {
        const startup = Date.now() - asked;
        if (Date.now() > start + 60000 - 800) return startup; // too late to see the flag fall
        ann.base = s.url;
        bob.base = s.url;
        const se = await new Browser(s.url).stream(code);
        const st = await se.until((j, e) => e.name === 'state');
        assert.equal(st.json.phase, 'playing');
        assert.equal(st.json.deadline_ms, start + 60000);
        // nobody sends anything now
        const over = await se.until((j) => j.kind === 'over', left + 5000);
        assert.equal(over.json.reason, 'time');
        assert.equal(over.json.outcome, 'black wins');
        assert.equal(over.json.color, 'white', 'white lost on time');
        assert.ok(over.json.at_ms >= start + 60000, 'not before the flag');
        assert.ok(over.json.at_ms < start + 60000 + 500, `at once (${over.json.at_ms - start - 60000} ms late)`);
        se.close();
        assert.equal((await bob.post(`/api/rooms/${code}/move`, { point: 'h9' })).status, 409);
        return null;
      } finally {
        if (s.proc.exitCode === null) assert.equal(await s.stop(), 0);
      }
    };
    let left = 1200;
    for (let tries = 1; ; tries++) {
      const startup = await attempt(left);
      if (startup === null) break;
      assert.ok(tries < 4, `the server took ${startup} ms to start, ${tries} times`);
      left = 1200 + 2 * startup;
    }
  });

  test('a flag that falls while the server is down ends the game after a restart, with no request', async () => {
    const db = tempDb();
    let s = await startServer(db, ['--quiet']);
    const { ann, code } = await twoPlayers(s.url, { clock: '1+0' });
    await ann.post(`/api/rooms/${code}/move`, { point: 'h8' });
    assert.equal(await s.stop('SIGTERM'), 0);
    // white's clock ran out 5 s ago, while the server was down
    execFileSync('sqlite3', [db, `UPDATE rooms SET turn_start_ms = ${Date.now() - 65000} WHERE code = '${code}';`]);
    s = await startServer(db, ['--quiet']);
    await new Promise((r) => setTimeout(r, 2500)); // nobody asks anything about the room
    assert.equal(await s.stop('SIGTERM'), 0);
    const row = execFileSync('sqlite3', [db, `SELECT phase, outcome, reason FROM rooms WHERE code = '${code}';`])
      .toString().trim();
    const game = execFileSync('sqlite3', [db, `SELECT g.outcome FROM games g JOIN rooms r ON r.game_id = g.id WHERE r.code = '${code}';`])
      .toString().trim();
    assert.equal(row.split('|')[0], '2', `the room's game is over (${row})`);
    assert.equal(game, '1', 'black wins the stored game');
  });
});
