// review.test.mjs: the readable evaluation and game review over HTTP (docs/http-api.md,
// "Evaluations" and "Game review"), against the real server on a free loopback port with a real
// SQLite file: the win rate beside the score in analyses and hints; a review started, followed
// to its end, labelled, kept in the store across a restart; cancelling, the per-browser limit,
// and the errors. Run by tests/api/run.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { BIN, Client, startServer, tempDb, until } from './server.mjs';

let srv;
let db;

before(async () => {
  db = tempDb();
  srv = await startServer(db, ['--engines', '2']);
});

after(async () => {
  if (srv && srv.proc.exitCode === null) await srv.stop();
});

// white's i8 leaves black's four open at h12; black's j11 misses the five there
const MISSED = 'h8h7h9i9h10i10h11i8j11h12';

const newGame = async (client, body) => {
  const r = await client.post('/api/games', body);
  assert.equal(r.status, 201, r.text);
  return r.json;
};

const reviewed = async (client, id, ms = 60000) => {
  const end = Date.now() + ms;
  for (;;) {
    const r = await client.get(`/api/games/${id}/review`);
    if (r.json && r.json.status !== 'running') return r;
    if (Date.now() > end) throw new Error(`review timed out: ${r.text}`);
    await new Promise((res) => setTimeout(res, 100));
  }
};

describe('evaluations', () => {
  test('an analysis carries the win rate of the side to move and of black, beside the score', async () => {
    const c = new Client(srv.url);
    const r = await c.post('/api/analyze', { moves: 'h8i9h9i10h10', time_ms: 200, nbest: 2 });
    assert.equal(r.status, 200, r.text);
    const ev = r.json.evaluation;
    assert.equal(ev.score, r.json.score);
    assert.ok(ev.winrate >= 0 && ev.winrate <= 100);
    assert.equal(ev.winrate + ev.black_winrate, 100, 'white to move');
    assert.equal(r.json.lines[0].evaluation.score, r.json.lines[0].score);
    const win = await c.post('/api/analyze', { moves: 'h8a1i8a2j8a3k8a4', time_ms: 200 });
    assert.deepEqual(
      { proved: win.json.evaluation.proved, winner: win.json.evaluation.winner, moves: win.json.evaluation.moves,
        winrate: win.json.evaluation.winrate },
      { proved: true, winner: 'black', moves: 1, winrate: 100 });
  });

  test("a hint comes with its evaluation; none before", async () => {
    const c = new Client(srv.url);
    const g = await newGame(c, { mode: 'hvh', moves: 'h8h7h9i9h10i10h11' });
    assert.equal(g.hint_eval, null);
    assert.equal((await c.post(`/api/games/${g.id}/hint`)).status, 202);
    const s = await until(c, g.id, (st) => st.hint !== null, 20000);
    assert.equal(s.hint, 'h12', 'white must block the four');
    assert.equal(typeof s.hint_eval.winrate, 'number');
    assert.equal(s.hint_eval.winrate + s.hint_eval.black_winrate, 100);
  });
});

describe('the coach', () => {
  test('POST /api/coach: the position, the last move and a forbidden point, in both languages', async () => {
    const c = new Client(srv.url);
    const pos = await c.post('/api/coach', { moves: 'h8h7h9i9h10i10h11' });
    assert.equal(pos.status, 200, pos.text);
    assert.ok(pos.json.sentences.includes('Black has a four (h8 h9 h10 h11): five at h12.'), pos.text);
    const last = await c.post('/api/coach', { moves: 'h8h7h9i9h10i10h11i8', what: 'last', lang: 'zh' });
    assert.deepEqual(last.json.sentences, ['白方下 i8 之后：', '黑方有连续冲四胜（VCF）：h12。', '白方若下在 h12 就能防住。']);
    const foul = await c.post('/api/coach', { rule: 'renju', moves: 'i8a1j8a2h9a3h10a5', what: 'forbidden', point: 'h8' });
    assert.equal(foul.json.sentences[0], 'h8 is forbidden for black: a double three, two open threes at once.');
    for (const body of [{ moves: 'h8h8' }, { what: 'nonsense' }, { lang: 'fr' }, { size: 40 }, { rule: 'go' },
      { what: 'forbidden', point: 'z99' }, { what: 'forbidden' }])
      assert.equal((await c.post('/api/coach', body)).status, 400, JSON.stringify(body));
    assert.equal((await c.get('/api/coach')).status, 405);
    assert.equal((await c.post('/api/coach', 'x', { 'content-type': 'text/plain' })).status, 415);
  });
});

describe('game review', () => {
  test('a review runs on the pool, labels the moves, and is kept across a restart', async () => {
    const c = new Client(srv.url);
    const g = await newGame(c, { mode: 'hvh', moves: MISSED });
    const none = await c.get(`/api/games/${g.id}/review`);
    assert.equal(none.status, 404);
    assert.equal(none.json.status, 'none');
    const start = await c.post(`/api/games/${g.id}/review`, {});
    assert.ok([200, 202].includes(start.status), start.text);
    assert.equal(start.json.positions, 11, 'ten moves and the last position');
    const again = await c.post(`/api/games/${g.id}/review`, {});
    assert.ok([200, 202].includes(again.status), 'a second start joins the first');
    const r = await reviewed(c, g.id);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.status, 'done');
    assert.equal(r.json.moves.length, 10);
    const m8 = r.json.moves[7];
    assert.deepEqual([m8.move, m8.color, m8.label, m8.best, m8.after], ['i8', 'white', 'blunder', 'h12', 0]);
    const m9 = r.json.moves[8];
    assert.deepEqual([m9.move, m9.label, m9.best, m9.before, m9.turning], ['j11', 'missed-win', 'h12', 100, true]);
    assert.equal(r.json.summary.white.blunder, 1);
    assert.equal(r.json.summary.black['missed-win'], 1);
    for (const m of r.json.moves) assert.equal(m.black_after, m.color === 'black' ? m.after : 100 - m.after);
    // the same review as the command line's, searched there on one engine: each search starts
    // from a cleared table, so the pool's two workers and their history change nothing
    const file = tempDb().replace(/gomoku\.db$/, 'missed.txt');
    writeFileSync(file, `${MISSED}\n`);
    const cli = JSON.parse(execFileSync(BIN, ['review', '--json', '--quiet', file]).toString());
    assert.deepEqual(r.json.moves, cli.moves);
    // a restart: the review comes from the store, without starting anything
    await srv.stop();
    srv = await startServer(db, ['--engines', '2']);
    const kept = await new Client(srv.url).get(`/api/games/${g.id}/review`);
    assert.equal(kept.status, 200, kept.text);
    assert.equal(kept.json.status, 'done');
    assert.deepEqual(kept.json.moves, r.json.moves);
  });

  test('cancel: only by the browser that started it; one running review per browser', async () => {
    const c = new Client(srv.url);
    // a long game, so that the review is still running when it is cancelled
    const long = 'h9h7g6g7i7i6j5f8j6h8j8j7h6g5i9g9h10k7i10g8e8f9e10f10g11f12f11e11d12f7f6h11k10e7d7j10k9l10d6e6l9j9i11i8i12i13j11h13m8';
    const g = await newGame(c, { mode: 'hvh', moves: long });
    const g2 = await newGame(c, { mode: 'hvh', moves: 'h8i9h9' });
    const start = await c.post(`/api/games/${g.id}/review`, {});
    assert.equal(start.status, 202, start.text);
    const second = await c.post(`/api/games/${g2.id}/review`, {});
    assert.equal(second.status, 429, second.text);
    const other = new Client(srv.url);
    assert.equal((await other.post(`/api/games/${g.id}/review/cancel`, {})).status, 403);
    const cancelled = await c.post(`/api/games/${g.id}/review/cancel`, {});
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.json.status, 'cancelled');
    assert.ok(cancelled.json.searched < cancelled.json.positions);
    const after = await c.get(`/api/games/${g.id}/review`);
    assert.equal(after.json.status, 'cancelled');
    // started again, it goes on from where it was, to the end
    assert.equal((await c.post(`/api/games/${g.id}/review`, {})).status, 202);
    const done = await reviewed(c, g.id, 120000);
    assert.equal(done.json.status, 'done', done.text);
    assert.equal(done.json.moves.length, 49);
  });

  test('errors: no such game, no moves, wrong methods, nothing to cancel', async () => {
    const c = new Client(srv.url);
    assert.equal((await c.get('/api/games/99999/review')).status, 404);
    assert.equal((await c.post('/api/games/99999/review', {})).status, 404);
    const empty = await newGame(c, { mode: 'hvh', moves: 'h8' });
    assert.equal((await c.req('DELETE', `/api/games/${empty.id}/review`)).status, 405);
    assert.equal((await c.get(`/api/games/${empty.id}/review/cancel`)).status, 405);
    assert.equal((await c.post(`/api/games/${empty.id}/review/cancel`, {})).status, 404);
    assert.equal((await c.get(`/api/games/${empty.id}/review/other`)).status, 404);
  });
});
