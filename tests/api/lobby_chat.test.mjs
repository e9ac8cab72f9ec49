// lobby_chat.test.mjs: the lobby's chat (issue 30 item 4, docs/lobby.md "Chat") against the real
// server and a real SQLite file: a line reaches every lobby viewer; a fresh stream (a reload)
// and a restarted server show the stored lines; only the last 100 are kept; a signed-in
// player speaks under its account's name, a guest under a name checked as a room's; the
// attacks: HTML and bidirectional controls, lines too long or not text, a missing or bad name
// (400, nothing stored), flooding (429 past --chat-limit, shared with the rooms' chat, nothing
// stored, new cookies do not help), a post from another site (403) or not JSON (415). Run by
// tests/api/run.sh.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Browser } from './roomclient.mjs';
import { startServer, tempDb } from './server.mjs';

const DB = tempDb();
// a high --chat-limit for most tests; the flood test starts its own server with the default
const ARGS = ['--engines', '1', '--quiet', '--join-limit', '1000', '--chat-limit', '1000'];
let srv;

before(async () => { srv = await startServer(DB, ARGS); });
after(async () => {
  if (srv && srv.proc.exitCode === null) {
    assert.equal(await srv.stop(), 0);
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/);
  }
});

/** A player in the lobby: a browser with its lobby stream open, and the stream's first event. */
async function enter(base = srv.url, b = new Browser(base)) {
  const s = await b.events('/api/lobby/events');
  assert.equal(s.status, 200);
  const first = await s.until((j, e) => e.name === 'lobby');
  return { b, s, start: first.json };
}

/** The texts of the lines a fresh lobby stream starts with. */
async function stored(base = srv.url) {
  const { s, start } = await enter(base);
  s.close();
  assert.ok(Array.isArray(start.chat), 'the first event lists the chat');
  return start.chat.map((l) => l.text);
}

/** Posts a line; name null: none given. */
const say = (b, text, name = 'Ann', headers = {}) =>
  b.req('POST', '/api/lobby/chat', name === null ? { text } : { name, text }, headers);

describe('lobby chat', () => {
  test('a line reaches every lobby viewer, its sender\'s too, and a fresh stream starts with it', async () => {
    const ann = await enter();
    const bob = await enter();
    const r = await say(ann.b, 'hello lobby');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.text, 'hello lobby');
    assert.equal(r.json.name, 'Ann');
    assert.equal(r.json.account, false);
    assert.match(r.json.from, /^[0-9a-f]{12}$/);
    const got = await bob.s.until((j, e) => e.name === 'chat' && j.id === r.json.id);
    assert.deepEqual(got.json, r.json);
    await ann.s.until((j, e) => e.name === 'chat' && j.id === r.json.id);
    // the same browser speaks with the same mark whatever name it gives; another has another
    const r2 = await say(ann.b, 'again', 'Annie');
    assert.equal(r2.json.from, r.json.from);
    const r3 = await say(bob.b, 'hi Ann', 'Bob');
    assert.notEqual(r3.json.from, r.json.from);
    assert.ok(r3.json.id > r2.json.id && r2.json.id > r.json.id);
    await ann.s.until((j, e) => e.name === 'chat' && j.id === r3.json.id);
    // a reload: the stored lines, oldest first
    const late = await enter();
    const texts = late.start.chat.map((l) => l.text);
    assert.deepEqual(texts.slice(-3), ['hello lobby', 'again', 'hi Ann']);
    late.s.close();
    ann.s.close();
    bob.s.close();
  });

  test('a signed-in player speaks under its account\'s name; a guest needs a valid name', async () => {
    const b = new Browser(srv.url);
    assert.equal((await b.post('/api/account/signup', { name: 'ChatCarol', password: 'ChatCarol-password' })).status, 201);
    const r = await say(b, 'from an account', 'Mallory');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.name, 'ChatCarol', 'the account\'s name, not the one given');
    assert.equal(r.json.account, true);
    const guest = new Browser(srv.url);
    for (const name of [null, '', '  ', 'evil\u202Egnp.exe', 'a\u2066b', 'tab\there', 'x'.repeat(25), 42]) {
      const g = await say(guest, 'no name', name);
      assert.equal(g.status, 400, `${JSON.stringify(name)}: ${g.text}`);
    }
    assert.ok(!(await stored()).includes('no name'), 'nothing stored');
  });

  test('HTML stays text; bidirectional controls are removed; controls become spaces', async () => {
    const ann = new Browser(srv.url);
    const bob = await enter();
    const html = '<img src=x onerror="alert(1)"><script>alert(2)</script>&amp;';
    assert.equal((await say(ann, html)).status, 201);
    const got = await bob.s.until((j, e) => e.name === 'chat' && j.text.startsWith('<img'));
    assert.equal(got.json.text, html, 'the text as sent, escaped only as JSON');
    // a line cannot end the SSE event early and forge another: new lines are spaces
    const forge = 'x\n\nevent: paired\ndata: {"id":1,"code":"AAAA"}';
    assert.equal((await say(ann, forge)).status, 201);
    const f = await bob.s.until((j, e) => e.name === 'chat' && j.text.startsWith('x '));
    assert.equal(f.json.text, 'x  event: paired data: {"id":1,"code":"AAAA"}');
    assert.ok(!bob.s.events.some((e) => e.name === 'paired'));
    const bidi = 'abc\u202Egnp.exe\u2066x\u200F\u061Cy\u2069\uFEFF';
    assert.equal((await say(ann, bidi)).status, 201);
    const b = await bob.s.until((j, e) => e.name === 'chat' && j.text.startsWith('abc'));
    assert.equal(b.json.text, 'abcgnp.exexy');
    assert.equal((await say(ann, 'two\nlines\there ')).status, 201);
    const c = await bob.s.until((j, e) => e.name === 'chat' && j.text.startsWith('two'));
    assert.equal(c.json.text, 'two lines here');
    bob.s.close();
  });

  test('length and type: 140 characters, 420 bytes; anything else is 400 and stores nothing', async () => {
    const ann = new Browser(srv.url);
    for (const text of ['x'.repeat(140), '五'.repeat(140)]) assert.equal((await say(ann, text)).status, 201);
    const before = await stored();
    const bad = [{ name: 'Ann', text: 'x'.repeat(141) }, { name: 'Ann', text: '五'.repeat(141) },
      { name: 'Ann', text: '😀'.repeat(106) }, { name: 'Ann', text: 42 }, { name: 'Ann', text: null },
      { name: 'Ann' }, {}, { name: 'Ann', text: ['a'] }, { name: 'Ann', text: 'a\u0000b' },
      { name: 'Ann', text: '\u202E\u2066' }, { name: 'Ann', text: '   ' }, { name: 'Ann', text: '' },
      { name: 'Ann', text: '\u200B\u3164' }];
    for (const body of bad) {
      const r = await ann.post('/api/lobby/chat', body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 40)}: ${r.text}`);
      assert.ok(r.json.error);
    }
    for (const raw of ['', 'not json', '[1]', '"text"', '{"text": "a", "text": ']) {
      const r = await fetch(`${srv.url}/api/lobby/chat`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: raw,
      });
      assert.equal(r.status, 400, `${raw}: ${await r.text()}`);
    }
    assert.equal((await ann.get('/api/lobby/chat')).status, 405);
    assert.deepEqual(await stored(), before, 'nothing stored');
  });

  test('cross-site: a post from another origin is 403, a body not JSON 415, nothing stored', async () => {
    const ann = new Browser(srv.url);
    const before = await stored();
    let r = await say(ann, 'forged', 'Ann', { origin: 'http://evil.example' });
    assert.equal(r.status, 403, r.text);
    r = await say(ann, 'forged', 'Ann', { 'sec-fetch-site': 'cross-site' });
    assert.equal(r.status, 403, r.text);
    r = await fetch(`${srv.url}/api/lobby/chat`, {
      method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"name":"Ann","text":"forged"}',
    });
    assert.equal(r.status, 415);
    assert.deepEqual(await stored(), before, 'nothing stored');
  });

  test('only the last 100 lines are kept', async () => {
    const ann = new Browser(srv.url);
    for (let i = 0; i < 105; i++) assert.equal((await say(ann, `keep ${i}`)).status, 201);
    const texts = await stored();
    assert.equal(texts.length, 100);
    assert.equal(texts[0], 'keep 5');
    assert.equal(texts[99], 'keep 104');
  });

  test('flooding: past 20 lines a minute the client gets 429, nothing is stored, new cookies do not help', async () => {
    const own = await startServer(tempDb(), ['--engines', '1', '--quiet', '--join-limit', '1000']);
    try {
      const ann = new Browser(own.url);
      const watcher = await enter(own.url);
      for (let i = 0; i < 20; i++) {
        const r = await say(ann, `line ${i}`);
        assert.equal(r.status, 201, `line ${i}: ${r.text}`);
      }
      const r = await say(ann, 'line 20');
      assert.equal(r.status, 429, r.text);
      // new cookies, another name, a room's chat: the same client, still refused
      assert.equal((await say(new Browser(own.url), 'hi', 'Zed')).status, 429);
      const room = await ann.post('/api/rooms', { name: 'Ann', black: 'me' });
      assert.equal(room.status, 201, room.text);
      assert.equal((await ann.post(`/api/rooms/${room.json.code}/chat`, { text: 'hi' })).status, 429);
      const texts = await stored(own.url);
      assert.equal(texts.length, 20, 'nothing stored past the limit');
      assert.equal(texts[19], 'line 19');
      await watcher.s.until((j, e) => e.name === 'chat' && j.text === 'line 19');
      assert.ok(!watcher.s.events.some((e) => e.name === 'chat' && !/^line \d+$/.test(e.json.text)));
      watcher.s.close();
    } finally {
      assert.equal(await own.stop(), 0);
    }
  });

  test('the chat is kept in the store: a restarted server shows it', async () => {
    const ann = new Browser(srv.url);
    assert.equal((await say(ann, 'before the restart')).status, 201);
    const before = await stored();
    await srv.stop();
    srv = await startServer(DB, ARGS);
    const after = await stored();
    assert.equal(after[after.length - 1], 'before the restart');
    assert.deepEqual(after, before);
  });
});
