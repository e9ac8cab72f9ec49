// chat.test.mjs: the chat of the online rooms (issue 30, docs/rooms.md "Chat") against the real
// server and a real SQLite file: the players' chat and the spectators' chat reach only their
// own people, a player mutes the other, lines are kept with the room's events (a fresh stream
// starts with them, Last-Event-ID resumes them, a restarted server still has them), and the
// attacks: flooding (429 past --chat-limit, nothing stored, not reset by new cookies), HTML and
// bidirectional controls, lines too long or not text. Run by tests/api/run.sh.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser } from './roomclient.mjs';
import { startServer, tempDb } from './server.mjs';

const DB = tempDb();
let srv;
// the default --chat-limit (20 a minute) is what the flood test measures
const ARGS = ['--engines', '1', '--quiet', '--join-limit', '1000'];

before(async () => { srv = await startServer(DB, ARGS); });
after(async () => {
  if (srv && srv.proc.exitCode === null) {
    assert.equal(await srv.stop(), 0);
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/);
  }
});

async function twoPlayers(base) {
  const ann = new Browser(base);
  const bob = new Browser(base);
  const c = await ann.post('/api/rooms', { name: 'Ann', black: 'me' });
  assert.equal(c.status, 201, c.text);
  const code = c.json.code;
  assert.equal((await bob.post(`/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
  return { ann, bob, code };
}

const chatOf = (s) => s.events.filter((e) => e.name === 'chat' && e.json.kind === 'chat').map((e) => e.json.text);

describe('room chat', () => {
  test('players and spectators each see only their own chat', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    const eve = new Browser(srv.url);
    const sa = await ann.stream(code);
    const sb = await bob.stream(code);
    const se = await eve.stream(code);
    await se.until((j, e) => e.name === 'state');
    let r = await ann.post(`/api/rooms/${code}/chat`, { text: 'good luck' });
    assert.equal(r.status, 200, r.text);
    r = await eve.post(`/api/rooms/${code}/chat`, { name: 'Eve', text: 'black is winning' });
    assert.equal(r.status, 200, r.text);
    r = await bob.post(`/api/rooms/${code}/chat`, { text: 'you too' });
    assert.equal(r.status, 200, r.text);
    const last = await sa.until((j) => j.text === 'you too');
    assert.equal(last.json.name, 'Bob');
    assert.equal(last.json.channel, 'players');
    assert.equal(last.json.seat, 1);
    await sb.until((j) => j.text === 'you too');
    await se.until((j) => j.text === 'black is winning');
    assert.deepEqual(chatOf(sa), ['good luck', 'you too']);
    assert.deepEqual(chatOf(sb), ['good luck', 'you too']);
    // the spectator's line came after Ann's and before Bob's: neither reached the other side
    r = await eve.post(`/api/rooms/${code}/chat`, { name: 'Eve', text: 'sentinel' });
    await se.until((j) => j.text === 'sentinel');
    assert.deepEqual(chatOf(se), ['black is winning', 'sentinel']);
    const e = se.events.find((x) => x.json.text === 'black is winning').json;
    assert.equal(e.channel, 'spectators');
    assert.equal(e.seat, null);
    assert.equal(e.name, 'Eve');
    // a spectator's line needs a name; a spectator cannot mute
    assert.equal((await eve.post(`/api/rooms/${code}/chat`, { text: 'hi' })).status, 400);
    assert.equal((await eve.post(`/api/rooms/${code}/mute`, { mute: true })).status, 403);
    for (const s of [sa, sb, se]) s.close();
  });

  test('a fresh stream starts with the chat its viewer may see; Last-Event-ID resumes it', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    const eve = new Browser(srv.url);
    await ann.post(`/api/rooms/${code}/chat`, { text: 'one' });
    await eve.post(`/api/rooms/${code}/chat`, { name: 'Eve', text: 'watching' });
    const mid = (await bob.get(`/api/rooms/${code}`)).json.last_seq;
    await bob.post(`/api/rooms/${code}/chat`, { text: 'two' });
    await ann.post(`/api/rooms/${code}/move`, { point: 'h8' });
    // the page reloads: the stream starts with the lines, then the state
    const sb = await bob.stream(code);
    const st = await sb.until((j, e) => e.name === 'state');
    assert.deepEqual(chatOf(sb), ['one', 'two']);
    assert.equal(sb.events[sb.events.length - 1], st, 'the state comes last');
    assert.ok(sb.events.filter((x) => x.name === 'chat').every((x) => x.id < st.id));
    const se = await eve.stream(code);
    await se.until((j, e) => e.name === 'state');
    assert.deepEqual(chatOf(se), ['watching']);
    // resumed after `mid`: Bob's line and the move, not the older ones
    const rb = await bob.stream(code, mid);
    await rb.until((j, e) => e.name === 'room' && j.kind === 'moved');
    assert.deepEqual(chatOf(rb), ['two']);
    const re = await eve.stream(code, mid);
    await re.until((j, e) => e.name === 'room' && j.kind === 'moved');
    assert.deepEqual(chatOf(re), [], 'a spectator resumes without the players\' lines');
    for (const s of [sb, se, rb, re]) s.close();
  });

  test('a player mutes the other: the muted lines reach only their sender, until unmuted', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    const sa = await ann.stream(code);
    const sb = await bob.stream(code);
    await sb.until((j, e) => e.name === 'state');
    let r = await bob.post(`/api/rooms/${code}/mute`, { mute: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.muted, true);
    assert.equal((await bob.post(`/api/rooms/${code}/mute`, { mute: true })).status, 409);
    assert.equal((await ann.get(`/api/rooms/${code}`)).json.muted, false);
    assert.equal((await bob.post(`/api/rooms/${code}/mute`, { mute: 'yes' })).status, 400);
    await ann.post(`/api/rooms/${code}/chat`, { text: 'you are bad' });
    await bob.post(`/api/rooms/${code}/chat`, { text: 'bob speaks' });
    await sa.until((j) => j.text === 'bob speaks');
    await sb.until((j) => j.text === 'bob speaks');
    const own = sa.events.find((x) => x.json.text === 'you are bad');
    assert.ok(own, 'the sender sees its own line');
    assert.equal(own.json.muted, true);
    assert.deepEqual(chatOf(sb), ['bob speaks']);
    // the mute itself is told to Bob only
    assert.ok(sb.events.some((x) => x.json.kind === 'mute' && x.json.muted === true));
    assert.ok(!sa.events.some((x) => x.json.kind === 'mute'));
    // after a reload Bob still does not see it
    const again = await bob.stream(code);
    const st = await again.until((j, e) => e.name === 'state');
    assert.equal(st.json.muted, true);
    assert.deepEqual(chatOf(again), ['bob speaks']);
    r = await bob.post(`/api/rooms/${code}/mute`, { mute: false });
    assert.equal(r.status, 200, r.text);
    await ann.post(`/api/rooms/${code}/chat`, { text: 'sorry' });
    await sb.until((j) => j.text === 'sorry');
    for (const s of [sa, sb, again]) s.close();
  });

  test('HTML stays text; bidirectional controls are removed; controls become spaces', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    const sb = await bob.stream(code);
    await sb.until((j, e) => e.name === 'state');
    const html = '<img src=x onerror="alert(1)"><script>alert(2)</script>&amp;';
    assert.equal((await ann.post(`/api/rooms/${code}/chat`, { text: html })).status, 200);
    const got = await sb.until((j) => j.kind === 'chat' && j.text.startsWith('<img'));
    assert.equal(got.json.text, html, 'the text as sent, escaped only as JSON');
    // a line cannot end the SSE event early and forge another: new lines are spaces
    const forge = 'x\n\nevent: room\ndata: {"kind":"over"}';
    assert.equal((await ann.post(`/api/rooms/${code}/chat`, { text: forge })).status, 200);
    const f = await sb.until((j) => j.kind === 'chat' && j.text.startsWith('x '));
    assert.equal(f.json.text, 'x  event: room data: {"kind":"over"}');
    assert.ok(!sb.events.some((e) => e.name === 'room' && e.json.kind === 'over'));
    // U+202E (right-to-left override), U+2066 (isolate), U+200F, U+061C: gone
    const bidi = 'abc\u202Egnp.exe\u2066x\u200F\u061Cy\u2069';
    assert.equal((await ann.post(`/api/rooms/${code}/chat`, { text: bidi })).status, 200);
    const b = await sb.until((j) => j.kind === 'chat' && j.text.startsWith('abc'));
    assert.equal(b.json.text, 'abcgnp.exexy');
    assert.doesNotMatch(b.json.text, /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u);
    assert.equal((await ann.post(`/api/rooms/${code}/chat`, { text: 'two\nlines\there ' })).status, 200);
    const c = await sb.until((j) => j.kind === 'chat' && j.text.startsWith('two'));
    assert.equal(c.json.text, 'two lines here');
    // nothing but controls, nothing visible: refused
    for (const text of ['\u202E\u2066', '   ', '\n\t', '', '\u200B\u3164']) {
      const r = await ann.post(`/api/rooms/${code}/chat`, { text });
      assert.equal(r.status, 400, `${JSON.stringify(text)}: ${r.text}`);
    }
    sb.close();
  });

  test('length and type: 140 characters, 420 bytes; anything else is 400 and stores nothing', async () => {
    const { ann, code } = await twoPlayers(srv.url);
    const before = (await ann.get(`/api/rooms/${code}`)).json.last_seq;
    const ok = ['x'.repeat(140), '五'.repeat(140)];
    for (const text of ok) assert.equal((await ann.post(`/api/rooms/${code}/chat`, { text })).status, 200);
    const bad = [{ text: 'x'.repeat(141) }, { text: '五'.repeat(141) }, { text: '😀'.repeat(106) },
      { text: 42 }, { text: null }, {}, { text: ['a'] }, { text: 'a\u0000b' }];
    for (const body of bad) {
      const r = await ann.post(`/api/rooms/${code}/chat`, body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 40)}: ${r.text}`);
      assert.ok(r.json.error);
    }
    const raw = await ann.req('POST', `/api/rooms/${code}/chat`, undefined,
      { 'content-type': 'application/json' });
    assert.equal(raw.status, 400);
    assert.equal((await ann.get(`/api/rooms/${code}`)).json.last_seq, before + ok.length);
  });

  test('flooding: past 20 lines a minute the client gets 429, nothing is stored, new cookies do not help', async () => {
    const own = await startServer(tempDb(), ARGS); // a minute of its own
    try {
      const { ann, bob, code } = await twoPlayers(own.url);
      for (let i = 0; i < 20; i++) {
        const r = await ann.post(`/api/rooms/${code}/chat`, { text: `line ${i}` });
        assert.equal(r.status, 200, `line ${i}: ${r.text}`);
      }
      const r = await ann.post(`/api/rooms/${code}/chat`, { text: 'line 20' });
      assert.equal(r.status, 429, r.text);
      const seq = (await ann.get(`/api/rooms/${code}`)).json.last_seq;
      // a new room, new cookies, a spectator: the same client, still refused
      const other = await twoPlayers(own.url);
      assert.equal((await other.bob.post(`/api/rooms/${other.code}/chat`, { text: 'hi' })).status, 429);
      assert.equal((await new Browser(own.url).post(`/api/rooms/${code}/chat`, { name: 'Z', text: 'hi' })).status, 429);
      assert.equal((await bob.post(`/api/rooms/${code}/chat`, { text: 'hi' })).status, 429);
      assert.equal((await ann.get(`/api/rooms/${code}`)).json.last_seq, seq, 'nothing stored past the limit');
      const sb = await bob.stream(code);
      await sb.until((j, e) => e.name === 'state');
      assert.equal(chatOf(sb).length, 20);
      sb.close();
      // moves are not chat: the game goes on
      assert.equal((await ann.post(`/api/rooms/${code}/move`, { point: 'h8' })).status, 200);
    } finally {
      assert.equal(await own.stop(), 0);
    }
  });

  test('the chat is kept with the room: a restarted server shows it', async () => {
    const { ann, bob, code } = await twoPlayers(srv.url);
    await ann.post(`/api/rooms/${code}/chat`, { text: 'before the restart' });
    await srv.stop();
    srv = await startServer(DB, ARGS);
    ann.base = bob.base = srv.url;
    const sb = await bob.stream(code);
    await sb.until((j, e) => e.name === 'state');
    assert.deepEqual(chatOf(sb), ['before the restart']);
    sb.close();
  });
});
