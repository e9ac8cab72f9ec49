// puzzle.test.mjs: puzzles over HTTP (docs/http-api.md "Puzzles") against the real server:
// a puzzle near the player's rating, the puzzle of the day, a puzzle by id without its
// solution, moves checked with the opponent answering, a hint, the Glicko-2 rating and streak
// kept in the store per browser, and the errors. The solutions come from the shipped set
// (src/game/puzzles_data.c), read here as a file. Run by tests/api/run.sh.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client, startServer, tempDb } from './server.mjs';

let srv;
before(async () => { srv = await startServer(tempDb(), ['--engines', '1']); });
after(async () => { if (srv && srv.proc.exitCode === null) await srv.stop(); });

const here = dirname(fileURLToPath(import.meta.url));
const lines = readFileSync(join(here, '../../src/game/puzzles_data.c'), 'utf8')
  .split('\n').map((l) => l.match(/^\s*"(.*)",$/)).filter(Boolean).map((m) => m[1].split(' '));
const split = (s) => s.match(/[a-o]\d+/g) || [];
const defence = lines.find((l) => l[2] === 'defence');
const fours = lines.find((l) => l[2] === 'fours' && Number(l[3]) >= 2);
const threes = lines.find((l) => l[2] === 'threes' && Number(l[3]) >= 3);

describe('puzzles', () => {
  test('next, daily and by id: the position without the solution', async () => {
    const c = new Client(srv.url);
    const next = await c.get('/api/puzzles/next?kind=fours&rule=renju');
    assert.equal(next.status, 200, next.text);
    assert.equal(next.json.kind, 'fours');
    assert.equal(next.json.rule, 'renju');
    assert.equal(next.json.player.rating, 1500, 'a new player');
    assert.equal(next.json.solution, undefined);
    assert.ok(next.json.count >= 500);
    const daily = await c.get('/api/puzzles/daily');
    assert.equal(daily.json.daily, true);
    assert.deepEqual((await c.get('/api/puzzles/daily')).json.id, daily.json.id, 'the same all day');
    const one = await c.get(`/api/puzzles/${defence[0]}`);
    assert.deepEqual(one.json.moves, split(defence[4]));
    assert.equal(one.json.to_move, split(defence[4]).length % 2 ? 'white' : 'black');
  });

  test('a fours puzzle solved move by move, the opponent answering; the rating goes up', async () => {
    const c = new Client(srv.url);
    const sol = split(fours[5]);
    const made = [];
    let r;
    for (let i = 0; i < sol.length; i += 2) {
      r = await c.post(`/api/puzzles/${fours[0]}/move`, { moves: made, point: sol[i] });
      assert.equal(r.status, 200, r.text);
      if (r.json.verdict === 'solved') break;
      assert.equal(r.json.verdict, 'good', r.text);
      assert.ok(r.json.reply, 'the opponent answers');
      made.push(sol[i], r.json.reply);
    }
    assert.equal(r.json.verdict, 'solved', r.text);
    assert.ok(r.json.player.rating > 1500);
    assert.equal(r.json.player.streak, 1);
    const me = await c.get('/api/puzzles/me');
    assert.equal(me.json.rating, r.json.player.rating, 'kept in the store');
    assert.equal(me.json.solved, 1);
  });

  test('a threes puzzle: the line played to the end; an off-line three is wrong', async () => {
    const c = new Client(srv.url);
    assert.ok(threes, 'the set has a threes puzzle of length 3 or more');
    const next = await c.get('/api/puzzles/next?kind=threes&rule=freestyle');
    assert.equal(next.status, 200, next.text);
    assert.equal(next.json.kind, 'threes');
    const sol = split(threes[5]);
    const made = [];
    let r;
    for (let i = 0; i < sol.length; i += 2) {
      r = await c.post(`/api/puzzles/${threes[0]}/move`, { moves: made, point: sol[i], hinted: true });
      assert.equal(r.status, 200, r.text);
      if (r.json.verdict === 'solved') break;
      assert.equal(r.json.verdict, 'good', r.text);
      assert.equal(r.json.reply, sol[i + 1], 'the opponent answers along the line');
      made.push(sol[i], r.json.reply);
    }
    assert.equal(r.json.verdict, 'solved', r.text);
    // the line replayed with a wrong answer is refused
    assert.equal((await c.post(`/api/puzzles/${threes[0]}/move`,
      { moves: [sol[0], sol[0] === 'a1' ? 'a2' : 'a1'], point: sol[2] })).status, 400);
  });

  test('a wrong move ends the puzzle with the solution; the streak ends; a hint is not rated', async () => {
    const c = new Client(srv.url);
    const sol = split(defence[5])[0];
    const pos = split(defence[4]);
    const cols = 'abcdefghijklmno';
    let wrong = null;
    for (let y = 1; y <= 15 && !wrong; y++)
      for (const x of cols) if (!pos.includes(`${x}${y}`) && `${x}${y}` !== sol) { wrong = `${x}${y}`; break; }
    const good = await c.post(`/api/puzzles/${defence[0]}/move`, { moves: [], point: sol });
    assert.equal(good.json.verdict, 'solved');
    assert.equal(good.json.player.streak, 1);
    const bad = await c.post(`/api/puzzles/${defence[0]}/move`, { moves: [], point: wrong });
    assert.equal(bad.json.verdict, 'wrong', bad.text);
    assert.equal(bad.json.solution, sol);
    assert.equal(bad.json.player.streak, 0);
    assert.equal(bad.json.player.best_streak, 1);
    const hint = await c.post(`/api/puzzles/${defence[0]}/hint`, { moves: [] });
    assert.equal(hint.json.hint, sol);
    const hinted = await c.post(`/api/puzzles/${defence[0]}/move`, { moves: [], point: sol, hinted: true });
    assert.equal(hinted.json.verdict, 'solved');
    assert.equal(hinted.json.player, undefined, 'not rated');
    assert.equal((await c.get('/api/puzzles/me')).json.solved, 1);
    const taken = await c.post(`/api/puzzles/${defence[0]}/move`, { moves: [], point: pos[0] });
    assert.equal(taken.status, 409, 'a taken point is refused, the puzzle goes on');
  });

  test('errors', async () => {
    const c = new Client(srv.url);
    assert.equal((await c.get('/api/puzzles/99999999')).status, 404);
    assert.equal((await c.get('/api/puzzles/next?kind=nonsense')).status, 400);
    assert.equal((await c.get('/api/puzzles/next?rule=caro')).status, 400);
    assert.equal((await c.post(`/api/puzzles/${defence[0]}/move`, { moves: [], point: 'z99' })).status, 400);
    assert.equal((await c.post(`/api/puzzles/${defence[0]}/move`, { moves: ['a1'], point: 'b2' })).status, 400);
    assert.equal((await c.post(`/api/puzzles/${fours[0]}/move`, { moves: ['a1', 'a2'], point: 'b2' })).status, 400,
      'moves that are not a line of the puzzle');
    assert.equal((await c.get(`/api/puzzles/${defence[0]}/move`)).status, 405);
    assert.equal((await c.post('/api/puzzles/next', {})).status, 405);
    assert.equal((await c.get(`/api/puzzles/${defence[0]}/nope`)).status, 404);
  });
});
