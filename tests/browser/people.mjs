// people.mjs: accounts, ratings and players' pages (web/account.html, web/players.html, the
// rated choice of web/online.html, the level ratings of the new-game dialog) in real browsers
// (Debian's chromium, headless, Playwright) against the real `gomoku serve`: two people sign up,
// play a rated game to the end in the room page, and see their ratings change on the player's
// page (with the history drawn) and on the leaderboard; a guest's game follows it into the
// account; log out everywhere else ends the other device's session; a name holding HTML shows
// as text. Usage: node people.mjs OUTDIR (GMK_BIN set). Prints "ok"/"not ok" per test and a
// summary line.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, pointXY, startServer } from './lib.mjs';

const BIN = process.env.GMK_BIN || '';
const SHOTS = path.resolve(process.argv[2] || 'build/screenshots');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gmk-people-'));
fs.mkdirSync(SHOTS, { recursive: true });
const T = 30000;

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} Context */

const server = await startServer(BIN, path.join(tmp, 'games.db'));
const browser = await launch();
/** @type {string[]} */
const problems = [];

/** A fresh person: a browser context of its own on a page of the site.
 * @param {string} where @returns {Promise<{ctx: Context, page: Page}>} */
async function person(where) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await ctx.newPage();
    page.setDefaultTimeout(T);
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await go(page, where);
    return { ctx, page };
}

/** @param {Page} page @param {string} where */
async function go(page, where) {
    await page.goto(new URL(where, server.url).href);
    await page.waitForSelector('body[data-ready]');
}

/** Signs up on the account page. @param {Page} page @param {string} name @param {string} password */
async function signUp(page, name, password) {
    await go(page, '/account.html');
    await page.fill('#signup-name', name);
    await page.fill('#signup-password', password);
    await page.click('#signup');
    await page.waitForFunction((n) => document.body.dataset.account === n, name);
}

/** Clicks a point in the room, then waits until every page shows n stones.
 * @param {Page} page @param {string} point @param {Page[]} all @param {number} n */
async function play(page, point, all, n) {
    await page.waitForFunction(() => /Your move/.test(document.querySelector('#status')?.textContent || ''));
    const p = await pointXY(page, point);
    await page.mouse.click(p.x, p.y);
    for (const q of all) await q.waitForSelector(`body[data-moves="${n}"]`);
}

let passed = 0;
let failed = 0;
/** @param {string} name @param {() => Promise<void>} fn */
async function test(name, fn) {
    const start = Date.now();
    problems.length = 0;
    try {
        await fn();
        assert.deepEqual(problems, [], 'no script errors or CSP violations');
        passed++;
        console.log(`ok - ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)`);
    } catch (e) {
        failed++;
        console.log(`not ok - ${name}: ${e instanceof Error ? e.message : e}`);
    }
}

await test('the level choice shows each level with its rating', async () => {
    const { ctx, page } = await person('/');
    await page.click('#new-game');
    const options = await page.$$eval('#setup-level option', (os) => os.map((o) => o.textContent || ''));
    assert.ok(options.length >= 7, options.join(' | '));
    const ratings = options.map((o) => Number((/\((\d+)\)$/.exec(o) || [])[1]));
    assert.ok(ratings.every((r) => r > 0), options.join(' | '));
    for (let i = 1; i < ratings.length; i++) assert.ok(ratings[i] > ratings[i - 1], options.join(' | '));
    assert.match(options[0], /^1 · Beginner \(1000\)$/);
    await ctx.close();
});

await test("two accounts play a rated game; ratings, history and leaderboard follow; a guest's game is claimed", async () => {
    // Ann plays a guest game first, then signs up in the same browser
    const ann = await person('/');
    const h8 = await pointXY(ann.page, 'h8'); // the first move creates the game
    await ann.page.mouse.click(h8.x, h8.y);
    await ann.page.waitForFunction(() => /\d/.test(localStorage.getItem('gmk.game') || ''));
    await go(ann.page, '/account.html');
    assert.equal(await ann.page.isVisible('#signup-form'), true);
    const guestGames = await ann.page.$$eval('#my-games li[data-game]', (ls) => ls.length);
    assert.equal(guestGames, 1, 'the guest game of this browser');
    await signUp(ann.page, 'Ann', 'ann-password');
    assert.equal(await ann.page.$$eval('#my-games li[data-game]', (ls) => ls.length), 1, 'claimed by signing up');
    assert.equal(await ann.page.textContent('#me-name'), 'Ann');
    assert.match(await ann.page.textContent('#sessions') || '', /this device/);

    const bob = await person('/account.html');
    await signUp(bob.page, 'Bob', 'bob-password');

    await go(ann.page, '/online.html');
    assert.equal(await ann.page.isVisible('#rated-row'), true);
    assert.equal(await ann.page.inputValue('#create-name'), 'Ann');
    await ann.page.check('#create-rated');
    await ann.page.selectOption('#create-form select[name=clock]', '5+3');
    await ann.page.click('#create');
    await ann.page.waitForSelector('body[data-room=waiting]');
    const link = await ann.page.inputValue('#room-link');
    await go(bob.page, link);
    assert.equal(await bob.page.inputValue('#join-name'), 'Bob', 'signed in: the account name');
    await bob.page.click('#join');
    await bob.page.waitForSelector('body[data-room=playing]');
    const pages = [ann.page, bob.page];
    const black = ['h8', 'i8', 'j8', 'k8', 'l8'], white = ['a1', 'a2', 'a3', 'a4'];
    let n = 0;
    for (let i = 0; i < 5; i++) {
        await play(ann.page, black[i], pages, ++n);
        if (i < 4) await play(bob.page, white[i], pages, ++n);
    }
    for (const p of pages) await p.waitForSelector('body[data-room=over]');

    await go(ann.page, '/players.html#name=Ann');
    await ann.page.waitForSelector('#pl-ratings tbody tr');
    const row = await ann.page.$$eval('#pl-ratings tbody tr', (rs) => rs.map((r) => [...r.children].map((c) => c.textContent)));
    assert.equal(row.length, 1);
    assert.equal(row[0][1], 'Blitz');
    const rating = Number(String(row[0][2]).replace('?', ''));
    assert.ok(rating > 1500, `Ann won: ${row[0][2]}`);
    assert.match(String(row[0][2]), /\?$/, 'provisional after one game');
    assert.equal(await ann.page.getAttribute('#history', 'data-points'), '1');
    assert.equal(await ann.page.$$eval('#history circle', (cs) => cs.length), 1);
    assert.match(await ann.page.textContent('#pl-games li') || '', /Ann – Bob .* won$/);
    await ann.page.screenshot({ path: path.join(SHOTS, 'player-page.png') });

    await go(bob.page, '/players.html#name=bob');
    await bob.page.waitForSelector('#pl-ratings tbody tr');
    const bobRating = Number(String(await bob.page.textContent('#pl-ratings tbody tr .rating')).replace('?', ''));
    assert.ok(bobRating < 1500, `Bob lost: ${bobRating}`);
    assert.match(await bob.page.textContent('#pl-games li') || '', /lost$/);

    // the leaderboard: provisional players only on request
    await go(bob.page, '/players.html');
    await bob.page.waitForSelector('body[data-players="0"]');
    assert.equal(await bob.page.isVisible('#lb-empty'), true);
    await bob.page.check('#lb-provisional');
    await bob.page.waitForSelector('body[data-players="2"]');
    const names = await bob.page.$$eval('#leaderboard tbody tr td:nth-child(2)', (ts) => ts.map((t) => t.textContent));
    assert.deepEqual(names, ['Ann', 'Bob']);
    await bob.page.click('#leaderboard tbody tr:first-child a');
    await bob.page.waitForFunction(() => document.querySelector('#pl-name')?.textContent === 'Ann');
    await bob.page.screenshot({ path: path.join(SHOTS, 'leaderboard.png') });

    // the online game follows both accounts
    await go(bob.page, '/account.html');
    const bobGames = await bob.page.$$eval('#my-games li[data-game]', (ls) => ls.map((l) => l.textContent || ''));
    assert.equal(bobGames.length, 1, `the online game: ${bobGames.join(' | ')}`);
    assert.match(bobGames[0], /^Ann – Bob /);
    for (const p of [ann, bob]) await p.ctx.close();
});

await test('log out everywhere else ends the other device; a name with HTML is text', async () => {
    const laptop = await person('/account.html');
    const name = '<b>Cy</b>';
    await signUp(laptop.page, name, 'cy-password');
    assert.equal(await laptop.page.textContent('#me-name'), name);
    assert.equal(await laptop.page.$$eval('#me-name b', (bs) => bs.length), 0, 'no element made from the name');
    const phone = await person('/account.html');
    await phone.page.fill('#login-name', '<B>cy</B>'); // any case of the name
    await phone.page.fill('#login-password', 'cy-password');
    await phone.page.click('#login');
    await phone.page.waitForFunction((n) => document.body.dataset.account === n, name);
    await go(laptop.page, '/account.html');
    assert.equal(await laptop.page.$$eval('#sessions li', (ls) => ls.length), 2);
    await laptop.page.click('#end-others');
    await laptop.page.waitForFunction(() => /1 other sessions ended/.test(document.querySelector('#notice')?.textContent || ''));
    assert.equal(await laptop.page.$$eval('#sessions li', (ls) => ls.length), 1);
    await go(phone.page, '/account.html');
    assert.equal(await phone.page.evaluate(() => document.body.dataset.account), '');
    assert.equal(await phone.page.isVisible('#login-form'), true);
    // a wrong password says so, and changes nothing
    await phone.page.fill('#login-name', name);
    await phone.page.fill('#login-password', 'wrong-password');
    await phone.page.click('#login');
    await phone.page.waitForFunction(() => /wrong user name or password/.test(document.querySelector('#message')?.textContent || ''));
    for (const p of [laptop, phone]) await p.ctx.close();
});

const AXE = fs.readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

await test('axe-core: no serious or critical violation on the account and players pages', async () => {
    for (const locale of ['en-US', 'zh-CN']) {
        const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale, bypassCSP: true });
        const page = await ctx.newPage();
        page.setDefaultTimeout(T);
        /** @type {string[]} */
        const found = [];
        for (const where of ['/account.html', '/players.html', '/players.html#name=Ann']) {
            await go(page, where);
            await page.evaluate(AXE);
            const r = await page.evaluate(async () => {
                // @ts-ignore: axe is the script evaluated above
                const res = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
                return res.violations.filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
                    .map((/** @type {any} */ v) => `${v.id}: ${v.nodes.slice(0, 2).map((/** @type {any} */ x) => x.target.join(' ')).join(', ')}`);
            });
            for (const v of r) found.push(`${locale} ${where}: ${v}`);
        }
        await ctx.close();
        assert.deepEqual(found, []);
    }
});

await browser.close();
const printed = await server.stop();
await test('people: the server reported no sanitizer error', async () => {
    assert.doesNotMatch(printed, /Sanitizer|runtime error/, printed.slice(0, 2000));
});
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`people: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
