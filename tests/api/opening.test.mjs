// opening.test.mjs: the swap and swap2 openings of online rooms (docs/rooms.md "Opening
// rules", docs/http-api.md) against the real server and a real SQLite file: two players play a
// swap2 room through the HTTP API to the first normal move while a spectator's stream sees each
// step, the wrong seat and the wrong step are refused with a clear error, a stream resumed with
// Last-Event-ID gets the steps it missed, and a server restarted (SIGTERM, then SIGKILL) in the
// middle of a swap opening resumes it. Run by tests/api/run.sh.
import assert from 'node:assert/strict';
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

/** Ann creates a room with these settings (she would play black: she proposes); Bob joins. */
async function twoPlayers(base, create = {}) {
  const ann = new Browser(base);
  const bob = new Browser(base);
  const c = await ann.post('/api/rooms', { name: 'Ann', black: 'me', ...create });
  assert.equal(c.status, 201, c.text);
  const code = c.json.code;
  const j = await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' });
  assert.equal(j.status, 200, j.text);
  return { ann, bob, code };
}

async function ok(p) {
  const r = await p;
  assert.equal(r.status, 200, r.text);
  return r.json;
}

async function refused(p, status, error) {
  const r = await p;
  assert.equal(r.status, status, r.text);
  if (error) assert.equal(r.json.error, error);
}

describe('swap openings in online rooms', () => {
  test('the opening is chosen at creation: free by default, a bad one is 400', async () => {
    const ann = new Browser(srv.url);
    const free = await ann.post('/api/rooms', { name: 'Ann' });
    assert.equal(free.json.opening, 'free');
    assert.equal(free.json.swap, null);
    for (const bad of ['swap3', '', 7, true]) {
      const r = await ann.post('/api/rooms', { name: 'Ann', opening: bad });
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(r.json.error, 'opening must be free, swap or swap2');
    }
    const { bob, code } = await twoPlayers(srv.url);
    await refused(bob.post(`/api/rooms/${code}/choose`, { choice: 'black' }), 409,
      'there is no colour to choose in this game now');
  });

  test('swap2 by two players to the first normal move, a spectator seeing every step', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url, { opening: 'swap2', clock: '10+5' });
    const eve = new Browser(srv.url);
    const se = await eve.stream(code);
    let st = await ok(ann.get(`/api/rooms/${code}`));
    assert.equal(st.opening, 'swap2');
    assert.deepEqual(st.swap, { phase: 'place3', first: 0, actor: 0, stone: 'black', stones: 0, choices: [] });
    assert.equal(st.to_move, 'black', 'the proposer (provisionally black) has the turn and the clock');
    // Ann places three; Bob can neither place nor choose meanwhile
    await refused(bob.post(`/api/rooms/${code}/move`, { point: 'h8' }), 409,
      'the other player is placing the opening stones');
    await ok(ann.post(`/api/rooms/${code}/move`, { point: 'h8', ply: 0 }));
    await refused(bob.post(`/api/rooms/${code}/choose`, { choice: 'black' }), 409,
      'the other player is placing the opening stones');
    st = await ok(ann.post(`/api/rooms/${code}/move`, { point: 'i9', ply: 1 }));
    assert.equal(st.swap.stone, 'black');
    st = await ok(ann.post(`/api/rooms/${code}/move`, { point: 'j8', ply: 2 }));
    assert.deepEqual(st.swap,
      { phase: 'choose', first: 0, actor: 1, stone: null, stones: 3, choices: ['black', 'white', 'place2'] });
    st = await ok(eve.get(`/api/rooms/${code}`));
    assert.equal(st.you, -1);
    assert.equal(st.swap.actor, 1, 'a spectator sees who chooses');
    assert.equal(st.to_move, 'white', 'Bob (provisionally white) has the clock');
    // the wrong seat, a stranger, a bad choice, a stone instead of a choice
    await refused(ann.post(`/api/rooms/${code}/choose`, { choice: 'white' }), 409,
      'the other player is choosing the colours now');
    await refused(ann.post(`/api/rooms/${code}/move`, { point: 'a1' }), 409,
      'the other player is choosing the colours now');
    await refused(eve.post(`/api/rooms/${code}/choose`, { choice: 'black' }), 403);
    for (const bad of [{}, { choice: 'green' }, { choice: 1 }, { choice: null }])
      await refused(bob.post(`/api/rooms/${code}/choose`, bad), 400, 'choice must be black, white or place2');
    await refused(bob.post(`/api/rooms/${code}/move`, { point: 'a1' }), 409,
      'choose first: black, white, or place two more stones');
    // Bob places two more (white, black); Ann then chooses
    st = await ok(bob.post(`/api/rooms/${code}/choose`, { choice: 'place2' }));
    assert.equal(st.swap.phase, 'place2');
    assert.equal(st.swap.actor, 1);
    assert.equal(st.swap.stone, 'white');
    await refused(ann.post(`/api/rooms/${code}/move`, { point: 'k10' }), 409,
      'the other player is placing the opening stones');
    await ok(bob.post(`/api/rooms/${code}/move`, { point: 'k10', ply: 3 }));
    st = await ok(bob.post(`/api/rooms/${code}/move`, { point: 'g7', ply: 4 }));
    assert.equal(st.swap.phase, 'choose5');
    assert.equal(st.swap.actor, 0);
    await refused(bob.post(`/api/rooms/${code}/choose`, { choice: 'black' }), 409,
      'the other player is choosing the colours now');
    await refused(ann.post(`/api/rooms/${code}/choose`, { choice: 'place2' }), 409,
      'that choice is not open now (place2 only in swap2, at three stones)');
    st = await ok(ann.post(`/api/rooms/${code}/choose`, { choice: 'white' }));
    assert.equal(st.swap, null);
    assert.equal(st.seats[0].color, 'white');
    assert.equal(st.seats[1].color, 'black');
    assert.equal(st.to_move, 'white');
    await refused(bob.post(`/api/rooms/${code}/move`, { point: 'a1' }), 409, 'it is not your turn');
    st = await ok(ann.post(`/api/rooms/${code}/move`, { point: 'l11', ply: 5 }));
    assert.deepEqual(st.moves, ['h8', 'i9', 'j8', 'k10', 'g7', 'l11']);
    assert.equal(st.to_move, 'black');
    // the spectator saw each step, in order
    await se.until((j) => j.kind === 'moved' && j.ply === 6);
    const steps = se.room().filter((e) => e.json.kind === 'moved' || e.json.kind === 'chosen')
      .map((e) => (e.json.kind === 'chosen' ? `${e.json.seat}:${e.json.choice}` : `${e.json.color}:${e.json.point}`));
    assert.deepEqual(steps, ['black:h8', 'white:i9', 'black:j8', '1:place2', 'white:k10', 'black:g7',
      '0:white', 'white:l11']);
    const chosen = se.room().find((e) => e.json.kind === 'chosen' && e.json.choice === 'white');
    assert.equal(chosen.json.color, 'white', 'seat 0\'s colour after the choice');
    // a stream resumed after the first stone gets the steps after it, with no gap
    const firstStone = se.room().find((e) => e.json.kind === 'moved');
    const again = await eve.stream(code, firstStone.id);
    await again.until((j) => j.kind === 'moved' && j.ply === 6);
    const ids = again.room().map((e) => e.id);
    assert.equal(ids[0], firstStone.id + 1);
    ids.forEach((id, i) => assert.equal(id, ids[0] + i));
    assert.equal(again.room().filter((e) => e.json.kind === 'chosen').length, 2);
    again.close();
    se.close();
    // the game's record names the players by their chosen colours
    const game = (await ok(eve.get('/api/games'))).games.find((g) => g.id === st.game_id);
    assert.equal(game.black, 'Bob');
    assert.equal(game.white, 'Ann');
  });

  test('a server restarted mid-opening resumes it (SIGTERM, then SIGKILL)', async () => {
    const db = tempDb();
    let s = await startServer(db, ['--quiet']);
    const { ann, bob, code } = await twoPlayers(s.url, { opening: 'swap', clock: '5+0' });
    await ok(ann.post(`/api/rooms/${code}/move`, { point: 'h8' }));
    await ok(ann.post(`/api/rooms/${code}/move`, { point: 'h9' }));
    assert.equal(await s.stop('SIGTERM'), 0);
    s = await startServer(db, ['--quiet']);
    ann.base = bob.base = s.url;
    let st = await ok(bob.get(`/api/rooms/${code}`));
    assert.equal(st.opening, 'swap');
    assert.deepEqual(st.swap, { phase: 'place3', first: 0, actor: 0, stone: 'black', stones: 2, choices: [] });
    await refused(bob.post(`/api/rooms/${code}/move`, { point: 'a1' }), 409);
    await ok(ann.post(`/api/rooms/${code}/move`, { point: 'j8', ply: 2 }));
    await s.stop('SIGKILL');
    s = await startServer(db, ['--quiet']);
    ann.base = bob.base = s.url;
    st = await ok(bob.get(`/api/rooms/${code}`));
    assert.deepEqual(st.moves, ['h8', 'h9', 'j8']);
    assert.equal(st.swap.phase, 'choose');
    assert.deepEqual(st.swap.choices, ['black', 'white'], 'no place2 under swap');
    await refused(bob.post(`/api/rooms/${code}/choose`, { choice: 'place2' }), 409);
    const s0 = st;
    st = await ok(bob.post(`/api/rooms/${code}/choose`, { choice: 'black' }));
    assert.equal(st.seats[1].color, 'black');
    assert.equal(st.seats[0].color, 'white');
    assert.ok(st.black_ms <= s0.white_ms, 'Bob kept his own clock, now black\'s');
    assert.equal(st.white_ms, s0.black_ms, 'Ann kept hers');
    await ok(ann.post(`/api/rooms/${code}/move`, { point: 'k10', ply: 3 }));
    assert.equal(await s.stop(), 0);
    assert.doesNotMatch(s.stderr(), /Sanitizer|runtime error/);
  });
});
