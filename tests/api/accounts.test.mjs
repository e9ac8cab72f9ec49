// accounts.test.mjs: players' accounts of `gomoku serve` (issue 30, docs/http-api.md
// "Accounts", docs/accounts.md) against the real server and a real SQLite file: sign up, log in
// and out, the session cookie's attributes, one answer for a wrong name and a wrong password,
// names unique regardless of case and normalisation, HTML and bidi characters in names, another
// user's session, a cross-site post, brute force answered 429 with back-off, sessions listed
// and ended everywhere else, a new password, deleting an account, and a guest's games claimed
// and followed on another device. Run by tests/api/run.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Browser } from './jar.mjs';
import { startServer, tempDb } from './server.mjs';

let srv, db;
before(async () => {
  db = tempDb();
  srv = await startServer(db, ['--engines', '1', '--quiet', '--auth-limit', '1000', '--write-limit', '1000']);
});
after(async () => {
  if (srv && srv.proc.exitCode === null) {
    assert.equal(await srv.stop(), 0);
    assert.doesNotMatch(srv.stderr(), /Sanitizer|runtime error/);
  }
});

const sql = (q) => execFileSync('sqlite3', [db, q], { encoding: 'utf8' }).trim();

describe('accounts', () => {
  test('sign up, who am I, log out, log in; the cookie is HttpOnly and SameSite=Lax', async () => {
    const b = new Browser(srv.url);
    assert.deepEqual((await b.get('/api/account')).json, { account: null });
    const r = await b.post('/api/account/signup', { name: 'Ann', password: 'correct horse' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.account.name, 'Ann');
    assert.doesNotMatch(r.text, /correct horse|argon/);
    const c = r.cookies.find((x) => x.startsWith('gmk_session='));
    assert.ok(c, r.cookies.join(' | '));
    assert.match(c, /^gmk_session=[0-9a-f]{64};/);
    assert.match(c, /; HttpOnly/);
    assert.match(c, /; SameSite=Lax/);
    assert.doesNotMatch(c, /; Secure/, 'plain http without --trust-proxy');
    assert.equal((await b.get('/api/account')).json.account.name, 'Ann');
    // the store keeps the token's hash, never the token, and the password's Argon2id hash
    const token = b.jar.get('gmk_session');
    assert.equal(sql(`SELECT count(*) FROM sessions WHERE hex(token_hash) = upper('${token}')`), '0');
    const digest = createHash('sha256').update(Buffer.from(token, 'hex')).digest('hex');
    assert.equal(sql(`SELECT count(*) FROM sessions WHERE hex(token_hash) = upper('${digest}')`), '1');
    assert.match(sql("SELECT pw_hash FROM accounts WHERE name = 'Ann'"), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const out = await b.post('/api/account/logout');
    assert.equal(out.status, 200);
    assert.ok(out.cookies.some((x) => /^gmk_session=;.*Max-Age=0/.test(x)));
    assert.deepEqual((await b.get('/api/account')).json, { account: null });
    // the old token no longer works even if kept
    const thief = new Browser(srv.url);
    thief.jar.set('gmk_session', token);
    assert.deepEqual((await thief.get('/api/account')).json, { account: null });
    const back = await b.post('/api/account/login', { name: 'ann', password: 'correct horse' });
    assert.equal(back.status, 200, back.text);
    assert.equal(back.json.account.name, 'Ann', 'the name as it was given');
  });

  test('a wrong name and a wrong password get the same answer', async () => {
    const b = new Browser(srv.url);
    await b.post('/api/account/signup', { name: 'Cora', password: 'cora-password' });
    const x = new Browser(srv.url);
    const wrongPw = await x.post('/api/account/login', { name: 'Cora', password: 'not-her-password' });
    const noUser = await x.post('/api/account/login', { name: 'Nobody Here', password: 'not-her-password' });
    assert.equal(wrongPw.status, 401);
    assert.equal(noUser.status, wrongPw.status);
    assert.equal(noUser.text, wrongPw.text);
    assert.ok(!wrongPw.cookies.some((c) => c.startsWith('gmk_session=')));
    assert.deepEqual((await x.get('/api/account')).json, { account: null });
  });

  test('names are unique regardless of case and Unicode normalisation', async () => {
    const b = new Browser(srv.url);
    assert.equal((await b.post('/api/account/signup', { name: 'Renée', password: 'password1' })).status, 201);
    for (const twin of ['RENÉE', 'rene\u0301e', 'ＲＥＮÉＥ']) {
      const r = await new Browser(srv.url).post('/api/account/signup', { name: twin, password: 'password2' });
      assert.equal(r.status, 409, `${twin}: ${r.text}`);
      assert.match(r.json.error, /taken/);
    }
    // log in by any form of the name
    const r = await new Browser(srv.url).post('/api/account/login', { name: 'RENE\u0301E', password: 'password1' });
    assert.equal(r.status, 200, r.text);
    assert.equal(sql("SELECT count(*) FROM accounts WHERE name_key = 'renée'"), '1');
  });

  test('HTML is kept as text; control and bidi characters are refused', async () => {
    const b = new Browser(srv.url);
    const html = '<img src=x>';
    const r = await b.post('/api/account/signup', { name: html, password: 'password1' });
    assert.equal(r.status, 201, r.text);
    assert.equal((await b.get('/api/account')).json.account.name, html);
    for (const bad of ['evil\u202Egnp.exe', 'a\u2066b', 'tab\there', '\u200B\u200B', ' lead', '']) {
      const x = await new Browser(srv.url).post('/api/account/signup', { name: bad, password: 'password1' });
      assert.equal(x.status, 400, `${JSON.stringify(bad)}: ${x.text}`);
    }
    const short = await new Browser(srv.url).post('/api/account/signup', { name: 'Shorty', password: 'short' });
    assert.equal(short.status, 400);
    assert.equal(sql("SELECT count(*) FROM accounts WHERE name = 'Shorty'"), '0');
  });

  test("another user's session: each token is its own account, and ids of others cannot be ended", async () => {
    const ann = new Browser(srv.url);
    await ann.post('/api/account/signup', { name: 'Dora', password: 'dora-password' });
    const bob = new Browser(srv.url);
    await bob.post('/api/account/signup', { name: 'Eli', password: 'eli-password' });
    const bobSessions = (await bob.get('/api/account/sessions')).json.sessions;
    assert.equal(bobSessions.length, 1);
    const r = await ann.post('/api/account/sessions/end', { id: bobSessions[0].id });
    assert.equal(r.status, 404, r.text);
    assert.equal((await bob.get('/api/account')).json.account.name, 'Eli');
    // a forged or altered token is a guest
    const forged = new Browser(srv.url);
    const t = bob.jar.get('gmk_session');
    forged.jar.set('gmk_session', t.slice(0, -1) + (t.endsWith('0') ? '1' : '0'));
    assert.deepEqual((await forged.get('/api/account')).json, { account: null });
    assert.equal((await forged.get('/api/account/sessions')).status, 401);
  });

  test('a cross-site post cannot act for a signed-in player', async () => {
    const b = new Browser(srv.url);
    await b.post('/api/account/signup', { name: 'Fay', password: 'fay-password' });
    const evil = { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
    for (const [path, body] of [['/api/account/password', { password: 'fay-password', new_password: 'hacked-pass' }],
      ['/api/account/delete', { password: 'fay-password' }], ['/api/account/logout', {}],
      ['/api/account/sessions/end', { others: true }]]) {
      const r = await b.post(path, body, evil);
      assert.equal(r.status, 403, `${path}: ${r.text}`);
    }
    // a form post (not JSON) from the same site is refused too
    const form = await fetch(`${srv.url}/api/account/login`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Fay&password=fay-password',
    });
    assert.equal(form.status, 415);
    assert.equal((await b.get('/api/account')).json.account.name, 'Fay');
    assert.equal((await new Browser(srv.url).post('/api/account/login', { name: 'Fay', password: 'fay-password' })).status, 200);
  });

  test('sessions are listed; log out everywhere else ends the other device', async () => {
    const laptop = new Browser(srv.url, { 'user-agent': 'Laptop browser' });
    await laptop.post('/api/account/signup', { name: 'Gus', password: 'gus-password' });
    const phone = new Browser(srv.url, { 'user-agent': 'Phone browser' });
    assert.equal((await phone.post('/api/account/login', { name: 'Gus', password: 'gus-password' })).status, 200);
    const list = (await laptop.get('/api/account/sessions')).json.sessions;
    assert.equal(list.length, 2);
    assert.deepEqual(list.map((s) => s.agent).sort(), ['Laptop browser', 'Phone browser']);
    assert.equal(list.filter((s) => s.current).length, 1);
    assert.equal(list.find((s) => s.current).agent, 'Laptop browser');
    const r = await laptop.post('/api/account/sessions/end', { others: true });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.ended, 1);
    assert.deepEqual((await phone.get('/api/account')).json, { account: null });
    assert.equal((await laptop.get('/api/account')).json.account.name, 'Gus');
  });

  test('a new password: the old one stops working and other sessions end', async () => {
    const a = new Browser(srv.url);
    await a.post('/api/account/signup', { name: 'Hal', password: 'old-password' });
    const other = new Browser(srv.url);
    await other.post('/api/account/login', { name: 'Hal', password: 'old-password' });
    assert.equal((await a.post('/api/account/password', { password: 'wrong-guess', new_password: 'new-password' })).status, 403);
    const r = await a.post('/api/account/password', { password: 'old-password', new_password: 'new-password' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((await other.get('/api/account')).json, { account: null });
    assert.equal((await a.get('/api/account')).json.account.name, 'Hal');
    assert.equal((await new Browser(srv.url).post('/api/account/login', { name: 'Hal', password: 'old-password' })).status, 401);
    assert.equal((await new Browser(srv.url).post('/api/account/login', { name: 'Hal', password: 'new-password' })).status, 200);
  });

  test("a guest's games are claimed by signing up and follow the account to another device", async () => {
    const b = new Browser(srv.url);
    const g = await b.post('/api/games', { mode: 'hvh' });
    assert.equal(g.status, 201, g.text);
    assert.equal((await b.post(`/api/games/${g.json.id}/move`, { point: 'h8' })).status, 200);
    assert.equal((await b.post(`/api/games/${g.json.id}/resign`)).status, 200);
    let mine = (await b.get('/api/account/games')).json;
    assert.equal(mine.whose, 'browser');
    assert.deepEqual(mine.games.map((x) => x.id), [g.json.id]);
    // another guest browser does not see it as its own
    assert.deepEqual((await new Browser(srv.url).get('/api/account/games')).json.games, []);
    assert.equal((await b.post('/api/account/signup', { name: 'Ivy', password: 'ivy-password' })).status, 201);
    const g2 = await b.post('/api/games', { mode: 'hvh' });
    mine = (await b.get('/api/account/games')).json;
    assert.equal(mine.whose, 'account');
    assert.deepEqual(mine.games.map((x) => x.id), [g2.json.id, g.json.id]);
    // another device: the same games and scoreboard once logged in
    const phone = new Browser(srv.url);
    await phone.post('/api/account/login', { name: 'Ivy', password: 'ivy-password' });
    assert.deepEqual((await phone.get('/api/account/games')).json.games.map((x) => x.id), [g2.json.id, g.json.id]);
    const stats = (await phone.get('/api/account/stats')).json;
    assert.equal(stats.whose, 'account');
    assert.equal(stats.lines.length, 1);
    assert.equal(stats.lines[0].mode, 'human-human');
    assert.equal(stats.lines[0].games, 1);
  });

  test('deleting an account: its games stay, the name is free again', async () => {
    const b = new Browser(srv.url);
    await b.post('/api/account/signup', { name: 'Jo', password: 'jo-password' });
    const g = await b.post('/api/games', { mode: 'hvh' });
    assert.equal((await b.post('/api/account/delete', { password: 'wrong-password' })).status, 403);
    const r = await b.post('/api/account/delete', { password: 'jo-password' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual((await b.get('/api/account')).json, { account: null });
    assert.equal((await b.get(`/api/games/${g.json.id}`)).status, 200, 'the game stays');
    assert.equal(sql("SELECT count(*) FROM accounts WHERE name = 'Jo'"), '0');
    assert.equal((await new Browser(srv.url).post('/api/account/login', { name: 'Jo', password: 'jo-password' })).status, 401);
    assert.equal((await new Browser(srv.url).post('/api/account/signup', { name: 'jo', password: 'other-pass' })).status, 201);
  });

  test('routes: wrong methods, bad bodies, signed-out calls', async () => {
    const b = new Browser(srv.url);
    assert.equal((await b.get('/api/account/login')).status, 405);
    assert.equal((await b.post('/api/account')).status, 405);
    assert.equal((await b.post('/api/account/signup', { name: 42, password: 'password1' })).status, 400);
    assert.equal((await b.post('/api/account/login', { name: 'x' })).status, 400);
    assert.equal((await b.post('/api/account/password', { password: 'a', new_password: 'bbbbbbbbb' })).status, 401);
    assert.equal((await b.post('/api/account/delete', {})).status, 401);
    assert.equal((await b.get('/api/account/nothing')).status, 404);
  });
});

describe('brute force', () => {
  test('log-ins past the limit are 429 with Retry-After, doubling; another address is not held', async () => {
    const s = await startServer(tempDb(), ['--quiet', '--trust-proxy', '--auth-limit', '3']);
    try {
      const from = (ip) => ({ 'x-forwarded-for': ip });
      const victim = new Browser(s.url, from('198.51.100.7'));
      assert.equal((await victim.post('/api/account/signup', { name: 'Kim', password: 'kim-password' })).status, 201);
      const attacker = new Browser(s.url, from('203.0.113.5'));
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await attacker.post('/api/account/login', { name: 'Kim', password: `guess-${i}` })).status);
      }
      assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
      // shut out: even the right password is refused, with how long to wait
      const r = await attacker.post('/api/account/login', { name: 'Kim', password: 'kim-password' });
      assert.equal(r.status, 429);
      const wait = Number(r.headers.get('retry-after'));
      assert.ok(wait > 0 && wait <= 60, `Retry-After ${wait}`);
      // the same /64 is the same client; another address is not held
      const v6a = new Browser(s.url, from('2001:db8:9:9::1'));
      for (let i = 0; i < 3; i++) await v6a.post('/api/account/login', { name: 'Kim', password: 'x-guess-1' });
      const v6b = new Browser(s.url, from('2001:db8:9:9::2'));
      assert.equal((await v6b.post('/api/account/login', { name: 'Kim', password: 'kim-password' })).status, 429);
      const friend = new Browser(s.url, from('198.51.100.8'));
      assert.equal((await friend.post('/api/account/login', { name: 'Kim', password: 'kim-password' })).status, 200);
      // sign-ups count as well
      const spam = new Browser(s.url, from('203.0.113.6'));
      const su = [];
      for (let i = 0; i < 4; i++) su.push((await spam.post('/api/account/signup', { name: `spam${i}`, password: 'password1' })).status);
      assert.deepEqual(su, [201, 201, 201, 429]);
    } finally {
      assert.equal(await s.stop(), 0);
    }
  });
});
