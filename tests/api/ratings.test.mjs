// ratings.test.mjs: rated online games of `gomoku serve` (issue 30, docs/accounts.md "Ratings",
// docs/http-api.md "Ratings and players") against the real server and a real SQLite file: two
// accounts play a rated blitz game to five in a row and both ratings change by Glicko-2 (checked
// against this file's own Glicko-2, written from Glickman's paper), the history, the leaderboard
// (provisional players kept off it), a player's page and its recent games, who may sit in a
// rated room, unrated rooms, the computer levels' ratings, and a deleted opponent. Run by
// tests/api/run.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { startServer, tempDb } from './server.mjs';
import { Browser } from './jar.mjs';

let srv, db;
before(async () => {
  db = tempDb();
  srv = await startServer(db, ['--engines', '1', '--quiet', '--auth-limit', '1000', '--join-limit', '1000', '--write-limit', '1000']);
});
after(async () => {
  if (srv && srv.proc.exitCode === null) {
    assert.equal(await srv.stop(), 0);
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/);
  }
});

const sql = (q) => execFileSync('sqlite3', [db, q], { encoding: 'utf8' }).trim();

// Glicko-2 after one game between two players (Glickman, "Example of the Glicko-2 system",
// steps 1-8), for checking the server's numbers independently.
function glicko2(me, opp, score, tau = 0.5) {
  const S = 173.7178;
  const mu = (me.r - 1500) / S, phi = me.rd / S, sigma = me.vol;
  const muj = (opp.r - 1500) / S, phij = opp.rd / S;
  const g = 1 / Math.sqrt(1 + (3 * phij * phij) / (Math.PI * Math.PI));
  const E = 1 / (1 + Math.exp(-g * (mu - muj)));
  const v = 1 / (g * g * E * (1 - E));
  const delta = v * g * (score - E);
  const a = Math.log(sigma * sigma);
  const f = (x) => (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) /
    (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (tau * tau);
  let A = a, B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else { let k = 1; while (f(a - k * tau) < 0) k++; B = a - k * tau; }
  let fA = f(A), fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA), fC = f(C);
    if (fC * fB <= 0) { A = B; fA = fB; } else fA /= 2;
    B = C; fB = fC;
  }
  const sigma2 = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + sigma2 * sigma2);
  const phi2 = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const mu2 = mu + phi2 * phi2 * g * (score - E);
  return { r: mu2 * S + 1500, rd: phi2 * S, vol: sigma2 };
}

async function signUp(name) {
  const b = new Browser(srv.url);
  const r = await b.post('/api/account/signup', { name, password: `${name}-password` });
  assert.equal(r.status, 201, r.text);
  return b;
}

/** Black plays h8..l8 (five in a row), white a1..a4. */
async function playToFive(code, black, white) {
  const bm = ['h8', 'i8', 'j8', 'k8', 'l8'], wm = ['a1', 'a2', 'a3', 'a4'];
  for (let i = 0; i < 5; i++) {
    const r = await black.post(`/api/rooms/${code}/move`, { point: bm[i] });
    assert.equal(r.status, 200, r.text);
    if (i < 4) assert.equal((await white.post(`/api/rooms/${code}/move`, { point: wm[i] })).status, 200);
  }
}

describe('ratings', () => {
  test('a rated blitz game to the end changes both ratings by Glicko-2, with history', async () => {
    const ann = await signUp('Ann');
    const bob = await signUp('Bob');
    const room = await ann.post('/api/rooms', { rated: true, clock: '5+3', black: 'me', name: 'ignored' });
    assert.equal(room.status, 201, room.text);
    assert.equal(room.json.rated, true);
    assert.equal(room.json.seats[0].name, 'Ann', 'a signed-in player plays under its account name');
    const code = room.json.code;
    const j = await bob.post(`/api/rooms/${code}/join`, { name: 'Someone Else' });
    assert.equal(j.status, 200, j.text);
    assert.equal(j.json.seats[1].name, 'Bob');
    assert.ok(j.json.seats.every((s) => s.account));
    assert.equal((await new Browser(srv.url).get('/api/player?name=ann')).json.ratings.length, 0, 'no rating before the end');
    await playToFive(code, ann, bob);
    const state = (await ann.get(`/api/rooms/${code}`)).json;
    assert.equal(state.result.outcome, 'black wins', JSON.stringify(state));

    const fresh = { r: 1500, rd: 350, vol: 0.06 };
    const wantWin = glicko2(fresh, fresh, 1), wantLoss = glicko2(fresh, fresh, 0);
    const pa = (await new Browser(srv.url).get('/api/player?name=ANN')).json;
    assert.equal(pa.name, 'Ann');
    assert.equal(pa.ratings.length, 1);
    const ra = pa.ratings[0];
    assert.equal(ra.rule, 'freestyle');
    assert.equal(ra.tc, 'blitz', '5+3: 300 + 40 x 3 = 420 s');
    assert.equal(ra.rating, Math.round(wantWin.r));
    assert.equal(ra.deviation, Math.round(wantWin.rd));
    assert.ok(ra.rating > 1600, `${ra.rating}`);
    assert.deepEqual([ra.games, ra.wins, ra.losses, ra.draws], [1, 1, 0, 0]);
    assert.equal(ra.provisional, true);
    assert.equal(ra.history.length, 1);
    assert.equal(ra.history[0].rating, ra.rating);
    assert.equal(ra.history[0].game, state.game_id);
    const rb = (await new Browser(srv.url).get('/api/player?name=Bob')).json.ratings[0];
    assert.equal(rb.rating, Math.round(wantLoss.r));
    assert.deepEqual([rb.games, rb.wins, rb.losses], [1, 0, 1]);
    // the result and the ratings are in the database together
    assert.equal(sql(`SELECT outcome FROM games WHERE id = ${state.game_id}`), '1');
    assert.equal(sql(`SELECT count(*) FROM rating_history WHERE game_id = ${state.game_id}`), '2');
    // recent games on the page, from the player's side; and the game follows both accounts
    assert.equal(pa.games[0].id, state.game_id);
    assert.equal(pa.games[0].color, 'black');
    assert.equal(pa.games[0].outcome, 'black wins');
    assert.deepEqual((await bob.get('/api/account/games')).json.games.map((g) => g.id), [state.game_id]);
    const stats = (await bob.get('/api/account/stats')).json.lines;
    assert.deepEqual(stats.map((l) => [l.mode, l.wins, l.losses]), [['online', 0, 1]]);

    // a rematch (colours swap) rates again from the new ratings
    assert.equal((await ann.post(`/api/rooms/${code}/rematch`)).status, 200);
    assert.equal((await bob.post(`/api/rooms/${code}/rematch`)).status, 200);
    await playToFive(code, bob, ann); // Bob black now, and wins
    const ra2 = (await new Browser(srv.url).get('/api/player?name=Ann')).json.ratings[0];
    const annAfter = glicko2({ r: wantWin.r, rd: wantWin.rd, vol: wantWin.vol }, { r: wantLoss.r, rd: wantLoss.rd, vol: wantLoss.vol }, 0);
    assert.equal(ra2.rating, Math.round(annAfter.r));
    assert.equal(ra2.games, 2);
    assert.equal(ra2.history.length, 2);
    assert.deepEqual(ra2.history.map((h) => h.rating), [ra.rating, ra2.rating]);
  });

  test('the leaderboard keeps provisional players off unless asked', async () => {
    const lb = (await new Browser(srv.url).get('/api/leaderboard?rule=freestyle&tc=blitz')).json;
    assert.deepEqual(lb.players, []);
    const all = (await new Browser(srv.url).get('/api/leaderboard?rule=freestyle&tc=blitz&provisional=true')).json;
    assert.deepEqual(all.players.map((p) => p.rank), [1, 2]);
    assert.ok(all.players[0].rating >= all.players[1].rating);
    assert.deepEqual(all.players.map((p) => p.name).sort(), ['Ann', 'Bob']);
    assert.deepEqual((await new Browser(srv.url).get('/api/leaderboard?rule=renju&tc=blitz&provisional=true')).json.players, []);
    assert.equal((await new Browser(srv.url).get('/api/leaderboard?tc=forever')).status, 400);
    assert.equal((await new Browser(srv.url).get('/api/leaderboard?rule=chess')).status, 400);
    assert.equal((await new Browser(srv.url).get('/api/player?name=Nobody')).status, 404);
    assert.equal((await new Browser(srv.url).get('/api/player')).status, 404);
  });

  test('who may sit in a rated room; unrated rooms change no rating', async () => {
    const cy = await signUp('Cy');
    assert.equal((await new Browser(srv.url).post('/api/rooms', { rated: true, name: 'Guest' })).status, 401);
    assert.equal((await cy.post('/api/rooms', { rated: 'yes' })).status, 400);
    const room = (await cy.post('/api/rooms', { rated: true, clock: '30+0' })).json;
    const guest = await new Browser(srv.url).post(`/api/rooms/${room.code}/join`, { name: 'Guest' });
    assert.equal(guest.status, 401, guest.text);
    const cy2 = new Browser(srv.url);
    await cy2.post('/api/account/login', { name: 'Cy', password: 'Cy-password' });
    const self = await cy2.post(`/api/rooms/${room.code}/join`, {});
    assert.equal(self.status, 409, self.text);
    assert.match(self.json.error, /yourself/);
    // an unrated room between two accounts: the game follows them, no rating moves
    const dee = await signUp('Dee');
    const casual = (await cy.post('/api/rooms', { clock: '5+3' })).json;
    assert.equal(casual.rated, false);
    assert.equal((await dee.post(`/api/rooms/${casual.code}/join`, {})).status, 200);
    await playToFive(casual.code, cy, dee);
    assert.deepEqual((await new Browser(srv.url).get('/api/player?name=Dee')).json.ratings, []);
    assert.equal((await dee.get('/api/account/games')).json.games.length, 1);
  });

  test("a guest's online games are claimed by signing up in its browser, and its seat follows", async () => {
    const gus = new Browser(srv.url);
    const hal = new Browser(srv.url);
    const room = (await gus.post('/api/rooms', { name: 'gus as guest', clock: '5+3' })).json;
    assert.equal((await hal.post(`/api/rooms/${room.code}/join`, { name: 'hal' })).status, 200);
    await playToFive(room.code, gus, hal);
    assert.equal((await gus.post('/api/account/signup', { name: 'Gus', password: 'Gus-password' })).status, 201);
    const mine = (await gus.get('/api/account/games')).json;
    assert.equal(mine.whose, 'account');
    assert.equal(mine.games.length, 1, JSON.stringify(mine));
    assert.equal(mine.games[0].black, 'gus as guest');
    const stats = (await gus.get('/api/account/stats')).json.lines;
    assert.deepEqual(stats.map((l) => [l.mode, l.wins, l.losses]), [['online', 1, 0]]);
    const st = (await gus.get(`/api/rooms/${room.code}`)).json;
    assert.deepEqual(st.seats.map((x) => x.account), [true, false], 'only this browser\'s seat');
    // the next game of the room follows the account at once (a rematch: colours swap)
    await gus.post(`/api/rooms/${room.code}/rematch`);
    await hal.post(`/api/rooms/${room.code}/rematch`);
    await playToFive(room.code, hal, gus);
    const after = (await gus.get('/api/account/stats')).json.lines;
    assert.deepEqual(after.map((l) => [l.mode, l.wins, l.losses]), [['online', 1, 1]]);
    assert.deepEqual((await new Browser(srv.url).get('/api/player?name=Gus')).json.ratings, [], 'a casual room');
    // Hal, still a guest, has nothing to claim in another account's name
    assert.equal((await new Browser(srv.url).get('/api/player?name=Gus')).json.games.length, 2);
  });

  test("the computer levels' ratings rise with the level", async () => {
    const levels = (await new Browser(srv.url).get('/api/config')).json.levels;
    assert.ok(levels.length >= 7);
    for (let i = 1; i < levels.length; i++) assert.ok(levels[i].rating > levels[i - 1].rating, JSON.stringify(levels));
    // level 1 anchored at 1000; level 2 one measured step (72.0%) above
    assert.equal(levels[0].rating, 1000);
    assert.equal(levels[1].rating, Math.round(1000 + 400 * Math.log10(0.72 / 0.28)));
  });

  test("a deleted opponent: the game stays under a neutral name, the other's rating stays", async () => {
    const eve = await signUp('Eve');
    const fox = await signUp('Fox');
    const room = (await eve.post('/api/rooms', { rated: true, clock: '10+5' })).json;
    await fox.post(`/api/rooms/${room.code}/join`, {});
    await playToFive(room.code, eve, fox);
    const before = (await new Browser(srv.url).get('/api/player?name=Eve')).json.ratings[0];
    assert.equal(before.tc, 'rapid');
    assert.equal((await fox.post('/api/account/delete', { password: 'Fox-password' })).status, 200);
    const page = (await new Browser(srv.url).get('/api/player?name=Eve')).json;
    assert.deepEqual(page.ratings[0], before);
    assert.equal(page.games[0].white, 'deleted player', JSON.stringify(page.games));
    assert.equal((await eve.get(`/api/rooms/${room.code}`)).json.seats[1].name, 'deleted player');
    assert.equal((await new Browser(srv.url).get('/api/player?name=Fox')).status, 404);
  });
});
