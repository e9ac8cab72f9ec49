// scale.test.mjs: several `gomoku serve` on one PostgreSQL database (issue 31, docs/deploy.md),
// real processes on loopback ports against the private server of tests/pg/pg.sh ($PG_CONN):
// an online game with one player and one spectator on each server (the same events and final
// position everywhere), the same move sent to both servers at once (exactly one played), kill -9
// of a server mid-game (the game finished through the other, streams resumed there with
// Last-Event-ID), a flag that falls while its server is dead, PostgreSQL stopped and started
// mid-game (503 with Retry-After, never a hang, then the game goes on with nothing lost),
// presence across servers (a player's stream on the other server counts for the disconnection
// claim; a killed server's streams expire with its lease), the lobby's chat (a line said on one
// server reaches the other's viewers once; a new server shows the stored lines), kill -9 of the
// server searching for the computer's move (the other server searches again), a swap2 opening
// played step by step on both servers (the opening's columns on PostgreSQL), and nginx in front of two servers
// when nginx can be started. Run by tests/pg/run.sh.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Browser, ROOM_SERVER_ARGS } from '../api/roomclient.mjs';
import { startServer } from '../api/server.mjs';

const PG = process.env.PG_CONN;
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
const servers = [];

function psql(conn, sql) {
  return execFileSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', conn, '-c', sql])
    .toString().trim();
}

let dbNo = 0;
/** A new database on the test server; its connection string. */
function freshDb() {
  const name = `gmk_scale_${process.pid}_${++dbNo}`;
  psql(PG, `CREATE DATABASE ${name}`);
  return `${PG} dbname=${name}`;
}

async function serve(db, extra = []) {
  const s = await startServer(db, [...ROOM_SERVER_ARGS, ...extra]);
  servers.push(s);
  return s;
}

after(async () => {
  // every server still running stops cleanly, and no server (killed ones included) reported a
  // sanitizer error (make test BUILD=asan)
  // (all at once: server.mjs kills what still runs 5 s after the hooks began, and one after the
  // other some twenty servers took longer than that on the loaded machine)
  const running = servers.filter((s) => s.proc.exitCode === null && s.proc.signalCode === null);
  const codes = await Promise.all(running.map((s) => s.stop('SIGTERM')));
  running.forEach((s, i) => assert.equal(codes[i], 0, s.stderr()));
  for (const s of servers) assert.doesNotMatch(s.stderr(), /Sanitizer|runtime error/);
});

const BLACK_FIVE = ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'];

/** The room events of a stream are numbered 1, 2, 3... from its first: no gap, no repeat. */
function assertConsecutive(events, from) {
  const ids = events.filter((e) => e.name === 'room').map((e) => e.id);
  ids.forEach((id, i) => assert.equal(id, from + i, `event ids ${ids.join(',')}`));
  return ids.length ? ids[ids.length - 1] : from - 1;
}

describe('several servers on one PostgreSQL', { skip: !PG && 'PG_CONN is not set (tests/run.sh starts PostgreSQL)' }, () => {
  test('a game with one player and one spectator on each server: the same events and position everywhere', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(b.url);
    const c = await ann.post('/api/rooms', { name: 'Ann', black: 'me' });
    assert.equal(c.status, 201, c.text);
    const code = c.json.code;
    const j = await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' });
    assert.equal(j.status, 200, j.text);
    assert.equal(j.json.you, 1, 'Bob sits on the other server');
    const eveA = await new Browser(a.url).stream(code);
    const ivyB = await new Browser(b.url).stream(code);
    await eveA.until((x, e) => e.name === 'state');
    await ivyB.until((x, e) => e.name === 'state');
    const players = [ann, bob];
    for (let i = 0; i < BLACK_FIVE.length; i++) {
      const r = await players[i % 2].post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[i], ply: i });
      assert.equal(r.status, 200, `move ${i}: ${r.text}`);
    }
    for (const s of [eveA, ivyB]) {
      const over = await s.until((x) => x.kind === 'over');
      assert.equal(over.json.outcome, 'black wins');
      const first = s.events[0].json.moves ?? [];
      const moved = s.room().filter((e) => e.json.kind === 'moved').map((e) => e.json.point);
      assert.deepEqual([...first, ...moved], BLACK_FIVE, 'every move once, in order');
      assertConsecutive(s.events, s.room()[0].id);
    }
    const seqA = eveA.room().map((e) => `${e.id}:${e.json.kind}:${e.json.point}`);
    const seqB = ivyB.room().map((e) => `${e.id}:${e.json.kind}:${e.json.point}`);
    const common = Math.max(eveA.room()[0].id, ivyB.room()[0].id);
    assert.deepEqual(seqA.filter((s) => Number(s.split(':')[0]) >= common),
      seqB.filter((s) => Number(s.split(':')[0]) >= common), 'the same events on both servers');
    const finals = await Promise.all([ann.get(`/api/rooms/${code}`), bob.get(`/api/rooms/${code}`)]);
    for (const f of finals) {
      assert.deepEqual(f.json.moves, BLACK_FIVE);
      assert.equal(f.json.phase, 'over');
    }
    eveA.close();
    ivyB.close();
  });

  test('chat across servers: each line reaches its own people on the other server, and only them', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(b.url);
    const code = (await ann.post('/api/rooms', { name: 'Ann', black: 'me' })).json.code;
    assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
    const bobB = await bob.stream(code);
    const eve = new Browser(b.url);
    const eveB = await eve.stream(code);
    await bobB.until((x, e) => e.name === 'state');
    await eveB.until((x, e) => e.name === 'state');
    assert.equal((await ann.post(`/api/rooms/${code}/chat`, { text: 'hello from A' })).status, 200);
    assert.equal((await new Browser(a.url).post(`/api/rooms/${code}/chat`, { name: 'Ivy', text: 'ivy on A' })).status, 200);
    const line = await bobB.until((x, e) => e.name === 'chat' && x.text === 'hello from A');
    assert.equal(line.json.name, 'Ann');
    await eveB.until((x, e) => e.name === 'chat' && x.text === 'ivy on A');
    assert.equal((await ann.post(`/api/rooms/${code}/chat`, { text: 'last' })).status, 200);
    await bobB.until((x, e) => e.name === 'chat' && x.text === 'last');
    assert.ok(!bobB.events.some((e) => e.name === 'chat' && e.json.text === 'ivy on A'), 'players do not see the spectators');
    assert.ok(!eveB.events.some((e) => e.name === 'chat' && e.json.channel === 'players'), 'spectators do not see the players');
    bobB.close();
    eveB.close();
  });

  test('a swap2 opening across servers: each step played on one server is seen and taken up on the other', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(b.url);
    const c = await ann.post('/api/rooms', { name: 'Ann', black: 'me', opening: 'swap2', clock: '10+5' });
    assert.equal(c.status, 201, c.text);
    const code = c.json.code;
    assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
    const eveB = await new Browser(b.url).stream(code);
    await eveB.until((x, e) => e.name === 'state');
    for (const [i, point] of ['h8', 'i9', 'j8'].entries()) {
      const r = await ann.post(`/api/rooms/${code}/move`, { point, ply: i });
      assert.equal(r.status, 200, r.text);
    }
    // on server B, Bob sees the choice Ann's server left him, and takes it there
    let st = (await bob.get(`/api/rooms/${code}`)).json;
    assert.equal(st.swap.phase, 'choose');
    assert.equal(st.swap.actor, 1);
    let r = await bob.post(`/api/rooms/${code}/choose`, { choice: 'place2' });
    assert.equal(r.status, 200, r.text);
    r = await bob.post(`/api/rooms/${code}/move`, { point: 'k10', ply: 3 });
    assert.equal(r.status, 200, r.text);
    r = await bob.post(`/api/rooms/${code}/move`, { point: 'g7', ply: 4 });
    assert.equal(r.status, 200, r.text);
    // back on server A, Ann chooses at five stones; a stone of hers before that is refused
    st = (await ann.get(`/api/rooms/${code}`)).json;
    assert.equal(st.swap.phase, 'choose5');
    assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'a1' })).status, 409);
    r = await ann.post(`/api/rooms/${code}/choose`, { choice: 'white' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.seats[0].color, 'white');
    r = await ann.post(`/api/rooms/${code}/move`, { point: 'l11', ply: 5 });
    assert.equal(r.status, 200, r.text);
    st = (await bob.get(`/api/rooms/${code}`)).json;
    assert.equal(st.swap, null);
    assert.equal(st.seats[1].color, 'black');
    assert.deepEqual(st.moves, ['h8', 'i9', 'j8', 'k10', 'g7', 'l11']);
    // the spectator on B saw every step, numbered without a gap
    await eveB.until((x) => x.kind === 'moved' && x.ply === 6);
    const kinds = eveB.room().filter((e) => ['moved', 'chosen'].includes(e.json.kind)).map((e) => e.json.kind);
    assert.deepEqual(kinds, ['moved', 'moved', 'moved', 'chosen', 'moved', 'moved', 'chosen', 'moved']);
    const ids = eveB.room().map((e) => e.id);
    ids.forEach((id, i) => assert.equal(id, ids[0] + i));
    eveB.close();
  });

  test('the lobby across servers: a seek posted on one is seen and taken on the other; quick pairing too', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(b.url);
    const lobby = async (br) => {
      const st = await br.events('/api/lobby/events');
      await st.until((x, e) => e.name === 'lobby');
      return st;
    };
    const annA = await lobby(ann);
    const bobB = await lobby(bob);
    const seek = await ann.post('/api/lobby/seeks', { name: 'Ann', clock: '5+3', color: 'black' });
    assert.equal(seek.status, 201, seek.text);
    await bobB.until((x, e) => e.name === 'seek' && x.id === seek.json.id);
    const acc = await bob.post(`/api/lobby/seeks/${seek.json.id}/accept`, { name: 'Bob' });
    assert.equal(acc.status, 200, acc.text);
    const paired = await annA.until((x, e) => e.name === 'paired' && x.id === seek.json.id);
    assert.equal(paired.json.code, acc.json.code);
    const annB = new Browser(b.url);
    annB.jar = new Map(ann.jar); // Ann's browser, balanced to the other server
    assert.equal((await annB.get(`/api/rooms/${acc.json.code}`)).json.you, 0);
    assert.equal((await ann.post(`/api/rooms/${acc.json.code}/move`, { point: 'h8' })).status, 200);
    // quick pairing: Ann waits on a, Cid asks on b
    const wait = await ann.post('/api/lobby/play', { name: 'Ann', clock: '10+5' });
    assert.equal(wait.status, 202, wait.text);
    const cid = new Browser(b.url);
    const p = await cid.post('/api/lobby/play', { name: 'Cid', clock: '10+5' });
    assert.equal(p.status, 200, p.text);
    const q = await annA.until((x, e) => e.name === 'paired' && x.id === wait.json.waiting);
    assert.equal(q.json.code, p.json.code);
    // a poster leaving a: its seek vanishes on b
    const dan = new Browser(a.url);
    const danA = await lobby(dan);
    const d = await dan.post('/api/lobby/seeks', { name: 'Dan', clock: '30+0' });
    await bobB.until((x, e) => e.name === 'seek' && x.id === d.json.id);
    danA.close();
    await bobB.until((x, e) => e.name === 'unseek' && x.id === d.json.id, 8000);
    annA.close();
    bobB.close();
  });

  test('the lobby chat across servers: a line said on one reaches the viewers of the other, once; a new server shows the lines', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(b.url);
    const annA = await ann.events('/api/lobby/events');
    await annA.until((x, e) => e.name === 'lobby');
    const bobB = await bob.events('/api/lobby/events');
    await bobB.until((x, e) => e.name === 'lobby');
    const r = await ann.post('/api/lobby/chat', { name: 'Ann', text: 'hello from a' });
    assert.equal(r.status, 201, r.text);
    const got = await bobB.until((x, e) => e.name === 'chat' && x.id === r.json.id);
    assert.deepEqual(got.json, r.json);
    // lines said on both at once: every viewer gets every line, once
    const said = await Promise.all([0, 1, 2, 3, 4, 5].map((i) =>
      (i % 2 ? bob : ann).post('/api/lobby/chat', { name: i % 2 ? 'Bob' : 'Ann', text: `both ${i}` })));
    for (const x of said) assert.equal(x.status, 201, x.text);
    const ids = [r.json.id, ...said.map((x) => x.json.id)].sort((x, y) => x - y);
    for (const st of [annA, bobB]) {
      for (const id of ids) await st.until((x, e) => e.name === 'chat' && x.id === id);
      await sleep(300);
      const seen = st.events.filter((e) => e.name === 'chat').map((e) => e.json.id).sort((x, y) => x - y);
      assert.deepEqual(seen, ids, 'each line once');
    }
    // a server started now, and a reload on either, start with the stored lines
    const c = await serve(db);
    for (const base of [a.url, b.url, c.url]) {
      const st = await new Browser(base).events('/api/lobby/events');
      const first = await st.until((x, e) => e.name === 'lobby');
      assert.deepEqual(first.json.chat.map((l) => l.id), ids, base);
      st.close();
    }
    annA.close();
    bobB.close();
  });

  test('the same move sent to both servers at once: exactly one is played', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const annA = new Browser(a.url);
    const c = await annA.post('/api/rooms', { name: 'Ann', black: 'me' });
    const code = c.json.code;
    const annB = new Browser(b.url);
    annB.jar = new Map(annA.jar); // the same browser, balanced to the other server
    const bob = new Browser(b.url);
    assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
    for (let round = 0; round < 5; round++) {
      const ply = 2 * round;
      const [r1, r2] = await Promise.all([
        annA.post(`/api/rooms/${code}/move`, { point: `${'acegi'[round]}1`, ply }),
        annB.post(`/api/rooms/${code}/move`, { point: `${'acegi'[round]}2`, ply }),
      ]);
      const ok = [r1, r2].filter((r) => r.status === 200);
      assert.equal(ok.length, 1, `round ${round}: ${r1.status} ${r1.text} / ${r2.status} ${r2.text}`);
      for (const r of [r1, r2]) if (r.status !== 200) assert.ok([409, 503].includes(r.status), r.text);
      const st = (await bob.get(`/api/rooms/${code}`)).json;
      assert.equal(st.moves.length, ply + 1, 'one move stored for the ply');
      const rb = await bob.post(`/api/rooms/${code}/move`, { point: `${'acegi'[round]}9`, ply: ply + 1 });
      assert.equal(rb.status, 200, `round ${round} (${r1.status}, ${r2.status}): ${rb.text}`);
    }
    const st = (await annA.get(`/api/rooms/${code}`)).json;
    assert.equal(st.moves.length, 10);
  });

  test('kill -9 of a server mid-game: the game is finished through the other, streams resume there', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(a.url);
    const c = await ann.post('/api/rooms', { name: 'Ann', black: 'me' });
    const code = c.json.code;
    assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
    const watch = await new Browser(a.url).stream(code);
    const players = [ann, bob];
    for (let i = 0; i < 5; i++)
      assert.equal((await players[i % 2].post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[i], ply: i })).status, 200);
    await watch.until((x) => x.kind === 'moved' && x.ply === 5);
    const last = watch.room().at(-1).id;
    a.proc.kill('SIGKILL');
    await sleep(100);
    // the balancer sends everyone to b now, cookies and Last-Event-ID as they were
    for (const p of players) p.base = b.url;
    const resumed = await new Browser(b.url).stream(code, last);
    for (let i = 5; i < BLACK_FIVE.length; i++) {
      const r = await players[i % 2].post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[i], ply: i });
      assert.equal(r.status, 200, `move ${i} through b: ${r.text}`);
    }
    const over = await resumed.until((x) => x.kind === 'over');
    assert.equal(over.json.outcome, 'black wins');
    const events = resumed.room();
    assert.equal(events[0].id, last + 1, 'resumed right after the last event seen');
    assertConsecutive(resumed.events, last + 1);
    const moved = events.filter((e) => e.json.kind === 'moved').map((e) => e.json.point);
    assert.deepEqual(moved, BLACK_FIVE.slice(5), 'nothing lost, nothing twice');
    const st = (await ann.get(`/api/rooms/${code}`)).json;
    assert.deepEqual(st.moves, BLACK_FIVE);
    assert.equal(st.you, 0, 'the seat cookie still holds on the other server');
    watch.close();
    resumed.close();
  });

  test('a flag that falls while its server is dead still ends the game', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(a.url);
    const code = (await ann.post('/api/rooms', { name: 'Ann', black: 'me', clock: '1+0' })).json.code;
    assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
    assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'h8' })).status, 200);
    a.proc.kill('SIGKILL'); // the server that held the room and watched its clock
    // white's turn began 58.5 s ago (as if that time had passed): 1.5 s left
    const start = Date.now() - 58500;
    psql(db, `UPDATE rooms SET turn_start_ms = ${start} WHERE code = '${code}'`);
    await sleep(5000); // nobody sends anything; b was never asked about the room
    const row = psql(db, `SELECT phase, outcome, reason FROM rooms WHERE code = '${code}'`);
    assert.equal(row, '2|1|4', 'over: black wins on time (phase|outcome|reason)');
    const game = psql(db, `SELECT g.outcome, g.reason FROM games g JOIN rooms r ON r.game_id = g.id WHERE r.code = '${code}'`);
    assert.equal(game, '1|4', 'the stored game too');
    const st = (await new Browser(b.url).get(`/api/rooms/${code}`)).json;
    assert.equal(st.phase, 'over');
    assert.equal(st.result.reason, 'time');
  });

  test('presence counts the streams on every server, and a dead server\'s streams expire', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(b.url);
    const code = (await ann.post('/api/rooms', { name: 'Ann', black: 'me' })).json.code;
    assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
    const annS = await ann.stream(code);
    const bobS = await bob.stream(code);
    await annS.until((x, e) => e.name === 'state');
    await bobS.until((x, e) => e.name === 'state');
    assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'h8', ply: 0 })).status, 200);
    // Bob (white, to move) has his stream on b: a, judging Ann's claim, counts it
    const st = (await ann.get(`/api/rooms/${code}`)).json;
    assert.equal(st.seats[1].connected, true, 'Bob is connected (on the other server)');
    assert.equal(st.claim_ms, 0, 'nothing to claim while he is connected');
    assert.equal((await ann.post(`/api/rooms/${code}/claim`)).status, 409);
    // a second tab of Bob's on a opens and closes: he stays connected, nobody is told otherwise
    const bobA = new Browser(a.url);
    bobA.jar = new Map(bob.jar);
    const tab = await bobA.stream(code);
    await tab.until((x, e) => e.name === 'state');
    tab.close();
    await sleep(1500); // a notices the closed tab within a second
    assert.equal((await ann.get(`/api/rooms/${code}`)).json.seats[1].connected, true);
    assert.ok(!annS.room().some((e) => e.json.kind === 'connection' && e.json.seat === 1 && e.json.count === 0),
      'no disconnection of Bob was logged');
    // b dies with Bob's stream: once its lease (5 s) has run out his stream no longer counts,
    // and the claim counts 60 s from the lease's end
    const killed = Date.now();
    b.proc.kill('SIGKILL');
    let now;
    for (let i = 0; i < 40; i++) {
      now = (await ann.get(`/api/rooms/${code}`)).json;
      if (!now.seats[1].connected) break;
      await sleep(250);
    }
    assert.equal(now.seats[1].connected, false, 'the dead server\'s stream expired');
    assert.ok(Date.now() - killed >= 3000, 'not before the lease ran out');
    assert.ok(now.claim_ms >= killed + 60000 - 2000 && now.claim_ms <= Date.now() + 60000,
      `claim from the lease's end: ${now.claim_ms - killed} ms after the kill`);
    assert.equal((await ann.post(`/api/rooms/${code}/claim`)).status, 409, 'not yet');
    annS.close();
    bobS.close();
  });

  test('kill -9 of the server searching for the computer\'s move: the other server searches again', async () => {
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const pa = new Browser(a.url);
    const g = await pa.post('/api/games', { mode: 'hvc', level: 7, human: 'black' }); // 5 s a move
    assert.equal(g.status, 201, g.text);
    const id = g.json.id;
    const pb = new Browser(b.url);
    pb.jar = new Map(pa.jar); // the same browser, balanced to b
    assert.deepEqual((await pb.get(`/api/games/${id}`)).json.moves, [], 'b keeps the game in memory');
    const m = await pa.post(`/api/games/${id}/move`, { point: 'h8' });
    assert.equal(m.status, 200, m.text);
    await sleep(300);
    assert.equal((await pa.get(`/api/games/${id}`)).json.thinking, true, 'a searches');
    a.proc.kill('SIGKILL'); // mid-search
    // the page comes back through the balancer to b: b sees the move made through a
    const st = (await pb.get(`/api/games/${id}`)).json;
    assert.deepEqual(st.moves, ['h8'], 'the move made through a');
    assert.equal(st.thinking, true, 'b searches again');
    let fin;
    for (let i = 0; i < 80; i++) {
      fin = (await pb.get(`/api/games/${id}`)).json;
      if (fin.moves.length >= 2) break;
      await sleep(250);
    }
    assert.equal(fin.moves.length, 2, 'the computer replied once');
    assert.equal(fin.your_turn, true);
    const next = ['a1', 'o15'].find((p) => !fin.moves.includes(p));
    const m2 = await pb.post(`/api/games/${id}/move`, { point: next, ply: 2 });
    assert.equal(m2.status, 200, m2.text);
    const stored = psql(db, `SELECT count(*) FROM moves WHERE game_id = ${id}`);
    assert.ok(Number(stored) >= 3, `the game goes on in the store (${stored} moves)`);
  });

  test('PostgreSQL stopped and started mid-game: 503 with Retry-After meanwhile, then the game goes on', async () => {
    assert.ok(process.env.PG_DIR, 'PG_DIR names the test server');
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const ann = new Browser(a.url);
    const bob = new Browser(b.url);
    const code = (await ann.post('/api/rooms', { name: 'Ann', black: 'me' })).json.code;
    assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
    const players = [ann, bob];
    for (let i = 0; i < 4; i++)
      assert.equal((await players[i % 2].post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[i], ply: i })).status, 200);
    const watch = await new Browser(b.url).stream(code);
    await watch.until((x, e) => e.name === 'state');
    const before = Math.max(...watch.events.map((e) => e.id ?? 0)); // seen before the outage
    const ctl = (args) => execFileSync('sh', ['-c', `. ./pg.sh; pg_ctl_as ${args}`], { stdio: 'ignore' });
    ctl('-w -t 30 -m fast stop');
    try {
      for (const p of players) {
        const t0 = Date.now();
        const r = await p.post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[4], ply: 4 });
        assert.ok(Date.now() - t0 < 8000, 'answered, not hung');
        assert.equal(r.status, 503, r.text);
        assert.ok(Number(r.headers.get('retry-after')) > 0, 'with Retry-After');
      }
      const h = await fetch(`${b.url}/healthz`);
      assert.equal(h.status, 503, 'the health check says so');
    } finally {
      ctl(`-w -t 30 -l ${process.env.PG_DIR}/server.log start`);
    }
    for (const s of [a, b]) { // the servers reconnect by themselves (at most once a second)
      let up = 0;
      for (let tries = 0; tries < 40 && up !== 200; tries++) {
        up = (await fetch(`${s.url}/healthz`)).status;
        if (up !== 200) await sleep(250);
      }
      assert.equal(up, 200, 'back after the outage');
    }
    let r;
    for (let tries = 0; tries < 20; tries++) {
      r = await ann.post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[4], ply: 4 });
      if (r.status === 200) break;
      assert.equal(r.status, 503, r.text);
      await sleep(Number(r.headers.get('retry-after') || 1) * 250);
    }
    assert.equal(r.status, 200, r.text);
    for (let i = 5; i < BLACK_FIVE.length; i++)
      assert.equal((await players[i % 2].post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[i], ply: i })).status, 200);
    const st = (await bob.get(`/api/rooms/${code}`)).json;
    assert.deepEqual(st.moves, BLACK_FIVE, 'nothing acknowledged was lost');
    assert.equal(st.phase, 'over');
    assert.equal((await fetch(`${a.url}/healthz`)).status, 200);
    // a stream resumed from the last event seen before the outage has every later event once
    const again = await new Browser(b.url).stream(code, before);
    await again.until((x) => x.kind === 'over');
    assertConsecutive(again.events, before + 1);
    const moved = again.room().filter((e) => e.json.kind === 'moved').map((e) => e.json.point);
    assert.deepEqual(moved, BLACK_FIVE.slice(4));
    watch.close();
    again.close();
  });

  test('nginx in front of two servers: a game played through it, events through it', async (t) => {
    let nginx = '';
    try { nginx = execFileSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx']).toString().trim(); } catch { /* none */ }
    if (!nginx) return t.skip('nginx is not installed');
    const db = freshDb();
    const [a, b] = await Promise.all([serve(db), serve(db)]);
    const port = await new Promise((res) => {
      const srv = createServer().listen(0, '127.0.0.1', () => { const p = srv.address().port; srv.close(() => res(p)); });
    });
    const dir = mkdtempSync(join(tmpdir(), 'gmk-nginx-'));
    const conf = `pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
worker_processes 1;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream gomoku { server 127.0.0.1:${a.port}; server 127.0.0.1:${b.port}; keepalive 16; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://gomoku; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_next_upstream error timeout http_502 http_503 http_504;
    }
    location ~ ^/api/(games|rooms)/[^/]+/events$ {
      proxy_pass http://gomoku; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_buffering off; proxy_read_timeout 1h;
    }
  }
}
`;
    writeFileSync(join(dir, 'nginx.conf'), conf);
    const ng = spawn(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
    try {
      const base = `http://127.0.0.1:${port}`;
      let up = false;
      for (let i = 0; i < 50 && !up; i++) {
        try { up = (await fetch(`${base}/healthz`)).status === 200; } catch { await sleep(100); }
      }
      assert.ok(up, 'nginx answers');
      const ann = new Browser(base);
      const bob = new Browser(base);
      const code = (await ann.post('/api/rooms', { name: 'Ann', black: 'me' })).json.code;
      assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
      const watch = await new Browser(base).stream(code);
      await watch.until((x, e) => e.name === 'state');
      const players = [ann, bob];
      for (let i = 0; i < BLACK_FIVE.length; i++)
        assert.equal((await players[i % 2].post(`/api/rooms/${code}/move`, { point: BLACK_FIVE[i], ply: i })).status, 200);
      const over = await watch.until((x) => x.kind === 'over');
      assert.equal(over.json.outcome, 'black wins');
      const moved = watch.room().filter((e) => e.json.kind === 'moved').map((e) => e.json.point);
      assert.deepEqual([...(watch.events[0].json.moves ?? []), ...moved], BLACK_FIVE);
      watch.close();
    } finally {
      ng.kill('SIGTERM');
      await new Promise((res) => ng.on('exit', res));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
