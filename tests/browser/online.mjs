// online.mjs: the online room page (web/online.html) in real browsers (Debian's chromium,
// headless, Playwright) against the real `gomoku serve`: two browser contexts play a game to the
// end while a third watches and all three show the same final position; a player reloads in
// the middle of a game and keeps the seat; a draw offer is accepted; undo by consent is
// declined, then accepted; a Chinese browser gets the room page in Chinese and can switch it
// back to English; the players chat with each other and the spectators among themselves, a
// line of HTML and bidirectional controls shows as plain text, a muted player's lines stop
// reaching the other, and a reload shows the chat again; two players play a swap2 opening to
// the first normal move (the choice from the keyboard) while a spectator in Chinese is told each
// step. Usage: node online.mjs OUTDIR (GMK_BIN set). Prints "ok"/"not ok" per
// test and a summary line.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkScreenshot, launch, pointXY, startServer, stones } from './lib.mjs';

const BIN = process.env.GMK_BIN || '';
const SHOTS = path.resolve(process.argv[2] || 'build/screenshots');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gmk-online-'));
fs.mkdirSync(SHOTS, { recursive: true });
const T = 30000;

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} Context */

const server = await startServer(BIN, path.join(tmp, 'games.db'));
const browser = await launch();
/** @type {string[]} */
const problems = [];

/** A fresh person: a browser context of its own (cookies, storage, language) on a page of the site.
 * @param {string} where @param {string} [locale] @returns {Promise<{ctx: Context, page: Page}>} */
async function person(where, locale = 'en-US') {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
    const page = await ctx.newPage();
    page.setDefaultTimeout(T);
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.goto(new URL(where, server.url).href);
    await page.waitForSelector('body[data-ready]');
    return { ctx, page };
}

/** Creates a room from the main page's link; returns the creator's page and the room's link.
 * @param {string} name @param {Record<string, string>} [opts] */
async function createRoom(name, opts = {}) {
    const p = await person('/');
    await p.page.click('#online-link');
    await p.page.waitForSelector('body[data-ready]');
    await p.page.fill('#create-name', name);
    for (const [k, v] of Object.entries(opts)) await p.page.selectOption(`#create-form select[name=${k}]`, v);
    await p.page.click('#create');
    await p.page.waitForSelector('body[data-room=waiting]');
    const link = await p.page.inputValue('#room-link');
    assert.match(link, /\/online\.html#room=[A-Z0-9]{12}$/);
    return { ...p, link };
}

/** The friend opens the link and joins with a name. @param {string} link @param {string} name */
async function joinRoom(link, name) {
    const p = await person(link);
    await p.page.fill('#join-name', name);
    await p.page.click('#join');
    await p.page.waitForSelector('body[data-room=playing]');
    return p;
}

/** Clicks a point, then waits until every page shows n stones.
 * @param {Page} page @param {string} point @param {Page[]} all @param {number} n */
async function play(page, point, all, n) {
    await page.waitForFunction(() => /Your move|轮到你落子/.test(document.querySelector('#status')?.textContent || ''));
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

await test('online: two players play to the end while a third watches; all see the same final position', async () => {
    const ann = await createRoom('Ann <b>&amp;</b>', { black: 'me' });
    const bob = await joinRoom(ann.link, 'Bob');
    const eve = await person(ann.link); // the room is full: Eve watches
    await eve.page.waitForSelector('body[data-room=playing]');
    await ann.page.waitForFunction(() => /1 person watching/.test(document.querySelector('#watchers')?.textContent || ''));
    // names are text, never HTML
    assert.equal(await ann.page.locator('#seat-0 .name b').count(), 0);
    assert.match((await eve.page.textContent('#seat-0 .name')) || '', /Ann <b>&amp;<\/b>/);
    await ann.page.waitForFunction(() => /connected/.test(document.querySelector('#seat-1 .conn')?.textContent || ''));
    const pages = [ann.page, bob.page, eve.page];
    const moves = ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'];
    for (let i = 0; i < moves.length; i++) await play(i % 2 ? bob.page : ann.page, moves[i], pages, i + 1);
    const finals = [];
    for (const p of pages) {
        await p.waitForSelector('body[data-room=over]');
        finals.push({ stones: await stones(p), status: await p.textContent('#status') });
    }
    assert.equal(finals[0].stones.length, 9);
    assert.deepEqual(finals[1].stones, finals[0].stones);
    assert.deepEqual(finals[2].stones, finals[0].stones);
    for (const f of finals) assert.match(f.status || '', /Black wins by five in a row/);
    await checkScreenshot(eve.ctx, eve.page, path.join(SHOTS, 'online-watcher-over.png'));
    await checkScreenshot(bob.ctx, bob.page, path.join(SHOTS, 'online-player-over.png'));
    for (const p of [ann, bob, eve]) await p.ctx.close();
});

await test('online: a reload in the middle of the game keeps the seat; the name is remembered', async () => {
    const ann = await createRoom('Ann', { clock: '5+3' });
    const bob = await joinRoom(ann.link, 'Bob');
    const pages = [ann.page, bob.page];
    await play(ann.page, 'h8', pages, 1);
    await bob.page.reload();
    await bob.page.waitForSelector('body[data-moves="1"]');
    assert.match((await bob.page.textContent('#seat-1 .name')) || '', /Bob \(you\)/);
    await play(bob.page, 'h9', pages, 2);
    assert.equal(await bob.page.evaluate(() => localStorage.getItem('gmk.name')), 'Bob');
    assert.match((await ann.page.textContent('#seat-0 .clock')) || '', /^[45]:\d\d$/);
    // the friend's tab closes: "disconnected N s", and the game goes on
    await bob.page.close();
    await ann.page.waitForFunction(() => /disconnected \d+ s/.test(document.querySelector('#seat-1 .conn')?.textContent || ''));
    await checkScreenshot(ann.ctx, ann.page, path.join(SHOTS, 'online-disconnected.png'));
    for (const p of [ann, bob]) await p.ctx.close();
});

await test('online: a draw offer is accepted', async () => {
    const ann = await createRoom('Ann');
    const bob = await joinRoom(ann.link, 'Bob');
    await play(ann.page, 'h8', [ann.page, bob.page], 1);
    await ann.page.click('#draw');
    await bob.page.waitForSelector('#offer:not([hidden])');
    assert.match((await bob.page.textContent('#offer-text')) || '', /offers a draw/);
    await bob.page.click('#offer-accept');
    for (const p of [ann.page, bob.page]) {
        await p.waitForSelector('body[data-room=over]');
        assert.match((await p.textContent('#status')) || '', /Draw by agreement/);
    }
    for (const p of [ann, bob]) await p.ctx.close();
});

await test('online: undo by consent is declined, then accepted', async () => {
    const ann = await createRoom('Ann');
    const bob = await joinRoom(ann.link, 'Bob');
    const pages = [ann.page, bob.page];
    await play(ann.page, 'h8', pages, 1);
    await play(bob.page, 'h9', pages, 2);
    await bob.page.click('#undo');
    await ann.page.waitForSelector('#offer:not([hidden])');
    assert.match((await ann.page.textContent('#offer-text')) || '', /take back/);
    await ann.page.click('#offer-decline');
    await ann.page.waitForSelector('#offer[hidden]', { state: 'attached' });
    assert.equal((await stones(bob.page)).length, 2, 'declined: nothing taken back');
    await bob.page.click('#undo');
    await ann.page.waitForSelector('#offer:not([hidden])');
    await ann.page.click('#offer-accept');
    for (const p of pages) await p.waitForSelector('body[data-moves="1"]');
    assert.deepEqual((await stones(bob.page)).map((s) => s.point), ['h8']);
    await play(bob.page, 'j10', pages, 2);
    for (const p of [ann, bob]) await p.ctx.close();
});

/** The words in Latin letters a page shows in its header and panel, but for the room's code and
 * the language switch's own names ("EN"). @param {Page} page @returns {Promise<string[]>} */
function latinWords(page) {
    return page.evaluate(() => {
        const code = document.querySelector('#room-code')?.textContent || '';
        const text = ['header', '#panel'].map((s) => /** @type {HTMLElement} */ (document.querySelector(s)).innerText).join(' ');
        const words = text.split(code).join(' ').match(/[A-Za-z]{2,}/g) || [];
        return words.filter((w) => w !== 'EN');
    });
}

await test('online: a Chinese browser gets the room in Chinese; the switch back to English is remembered', async () => {
    const ann = await person('/', 'zh-CN');
    assert.equal(await ann.page.textContent('#online-link'), '和好友在线对弈');
    await ann.page.click('#online-link');
    await ann.page.waitForSelector('body[data-ready]');
    assert.equal(await ann.page.textContent('#create'), '创建房间');
    assert.equal(await ann.page.textContent('#join-form h2'), '加入房间');
    assert.deepEqual(await latinWords(ann.page), [], 'the forms are all Chinese');
    await ann.page.fill('#create-name', '小明');
    await ann.page.selectOption('#create-form select[name=black]', 'me');
    await ann.page.click('#create');
    await ann.page.waitForSelector('body[data-room=waiting]');
    assert.equal(await ann.page.textContent('#status'), '等待好友加入。');
    const bob = await joinRoom(await ann.page.inputValue('#room-link'), '小红'); // an English browser
    await ann.page.waitForSelector('body[data-room=playing]');
    assert.equal(await ann.page.textContent('#status'), '轮到你落子。');
    assert.equal(await bob.page.textContent('#status'), 'Waiting for your friend’s move.');
    await play(ann.page, 'h8', [ann.page, bob.page], 1);
    assert.equal(await ann.page.textContent('#status'), '等待好友落子。');
    const buttons = { undo: '请求悔棋', draw: '求和', resign: '认输' };
    for (const [id, text] of Object.entries(buttons)) assert.equal(await ann.page.textContent(`#${id}`), text);
    assert.equal(await ann.page.textContent('#seat-0 .name'), '小明（你）');
    await ann.page.waitForFunction(() => document.querySelector('#seat-1 .conn')?.textContent === '在线');
    await bob.page.click('#draw');
    await ann.page.waitForSelector('#offer:not([hidden])');
    assert.equal(await ann.page.textContent('#offer-text'), '好友提议和棋。');
    assert.equal(await ann.page.textContent('#offer-accept'), '同意');
    assert.equal(await ann.page.textContent('#offer-decline'), '拒绝');
    assert.equal(await ann.page.title(), '五子棋：和好友在线对弈');
    assert.equal(await ann.page.getAttribute('html', 'lang'), 'zh-CN');
    assert.deepEqual(await latinWords(ann.page), [], 'the room is all Chinese');
    await checkScreenshot(ann.ctx, ann.page, path.join(SHOTS, 'online-zh.png'));
    // back to English: the room is drawn again at once, and the choice outlives a reload
    await ann.page.selectOption('#lang', 'en');
    assert.equal(await ann.page.textContent('#offer-text'), 'Your friend offers a draw.');
    assert.equal(await ann.page.textContent('#draw'), 'Offer a draw');
    assert.equal(await ann.page.textContent('#seat-0 .name'), '小明 (you)');
    await ann.page.reload();
    await ann.page.waitForSelector('body[data-moves="1"]');
    assert.equal(await ann.page.textContent('#status'), 'Waiting for your friend’s move.');
    assert.equal(await ann.page.textContent('#undo'), 'Ask to undo');
    assert.equal(await ann.page.evaluate(() => localStorage.getItem('gmk.lang')), 'en');
    for (const p of [ann, bob]) await p.ctx.close();
});

await test('online: chat: players and spectators apart, HTML as text, bidi neutralised, mute, reload', async () => {
    const ann = await createRoom('Ann');
    const bob = await joinRoom(ann.link, 'Bob');
    const eve = await person(ann.link);
    await eve.page.waitForSelector('body[data-room=playing]');
    assert.equal(await eve.page.textContent('#chat-title'), 'Spectators\' chat');
    assert.equal(await ann.page.textContent('#chat-title'), 'Chat with your opponent');
    /** @param {Page} page @param {string} text */
    const say = async (page, text) => {
        await page.fill('#chat-text', text);
        await page.click('#chat-send');
        await page.waitForFunction(() => (/** @type {HTMLInputElement} */ (document.querySelector('#chat-text'))).value === '');
    };
    /** @param {Page} page @returns {Promise<string[]>} */
    const lines = (page) => page.$$eval('#chat-lines li', (ls) => ls.map((l) => l.textContent || ''));
    /** @param {Page} page @param {number} n */
    const until = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#chat-lines li').length >= k, n);
    const html = '<img src=x onerror="window.pwned=1"><b>bold</b>';
    await say(ann.page, html);
    await until(bob.page, 1);
    assert.deepEqual(await lines(bob.page), [`Ann${html}`]);
    assert.equal(await bob.page.$$eval('#chat-lines img, #chat-lines b', (x) => x.length), 0, 'no element made of the text');
    assert.equal(await bob.page.evaluate(() => /** @type {any} */ (window).pwned), undefined);
    // U+202E would show "exe.txt" backwards and everything after it: it is removed
    await say(bob.page, 'see \u202Etxt.exe');
    await until(ann.page, 2);
    assert.equal((await lines(ann.page))[1], 'Bobsee txt.exe');
    assert.equal(await ann.page.$eval('#chat-lines li:last-child .text', (e) => getComputedStyle(e).unicodeBidi), 'isolate');
    await eve.page.fill('#chat-name', 'Eve');
    await say(eve.page, 'nice game');
    await until(eve.page, 1);
    assert.deepEqual(await lines(eve.page), ['Evenice game'], 'the spectator sees only the spectators');
    await say(ann.page, 'after eve');
    await until(bob.page, 3);
    assert.deepEqual((await lines(bob.page)).slice(2), ['Annafter eve'], 'the players never see the spectators');
    // Bob mutes Ann: her next line reaches her page only
    assert.equal(await eve.page.isHidden('#mute-row'), true);
    const muted = bob.page.waitForResponse((r) => r.url().endsWith('/mute') && r.status() === 200);
    await bob.page.check('#mute');
    await muted;
    await say(ann.page, 'muted words');
    await until(ann.page, 4);
    await say(bob.page, 'bob again');
    await until(bob.page, 4);
    assert.deepEqual((await lines(bob.page)).slice(3), ['Bobbob again']);
    assert.equal(await ann.page.$eval('#chat-lines li:nth-child(4)', (e) => e.classList.contains('muted')), true);
    // a reload shows the chat again, the mute with it
    await bob.page.reload();
    await bob.page.waitForSelector('body[data-room=playing]');
    await until(bob.page, 4);
    assert.deepEqual(await lines(bob.page), [`Ann${html}`, 'Bobsee txt.exe', 'Annafter eve', 'Bobbob again']);
    assert.equal(await bob.page.isChecked('#mute'), true);
    await checkScreenshot(eve.ctx, eve.page, path.join(SHOTS, 'online-chat-spectator.png'));
    await checkScreenshot(ann.ctx, ann.page, path.join(SHOTS, 'online-chat-player.png'));
    for (const p of [ann, bob, eve]) await p.ctx.close();
});

/** The text of #status. @param {Page} page */
const statusOf = async (page) => (await page.textContent('#status')) || '';

/** Waits until #status of page matches re. @param {Page} page @param {RegExp} re */
async function statusMatches(page, re) {
    try {
        await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#status')?.textContent || ''), re.source);
    } catch (e) {
        throw new Error(`the status "${await statusOf(page)}" does not match ${re}`);
    }
}

/** Clicks a point of the opening, then waits until every page shows n stones.
 * @param {Page} page @param {string} point @param {Page[]} all @param {number} n */
async function place(page, point, all, n) {
    const p = await pointXY(page, point);
    await page.mouse.click(p.x, p.y);
    for (const q of all) await q.waitForSelector(`body[data-moves="${n}"]`);
}

await test('online: a swap2 opening by two players to the first normal move, told to a spectator in Chinese', async () => {
    const ann = await createRoom('Ann', { opening: 'swap2', clock: '10+5' });
    const bob = await joinRoom(ann.link, 'Bob');
    const eve = await person(ann.link, 'zh-CN'); // the room is full: Eve watches, in Chinese
    await eve.page.waitForSelector('body[data-room=playing]');
    const pages = [ann.page, bob.page, eve.page];
    assert.match((await ann.page.textContent('#room-opening')) || '', /Opening: Swap2/);
    // Ann (who would play black) places three stones; the others are told which one
    await statusMatches(ann.page, /Place the opening: stone 1 of 3 \(Black\)/);
    await statusMatches(bob.page, /Your friend places the opening: stone 1 of 3 \(Black\)/);
    await statusMatches(eve.page, /Ann正在摆开局：第 1 子，共 3 子/);
    await place(ann.page, 'h8', pages, 1);
    await statusMatches(ann.page, /Place the opening: stone 2 of 3 \(White\)/);
    await place(ann.page, 'i9', pages, 2);
    await place(ann.page, 'j8', pages, 3);
    // Bob chooses, from the keyboard: the first choice has the focus
    await bob.page.waitForSelector('#swap-choice:not([hidden])');
    await statusMatches(bob.page, /Three stones are down: take black, take white or place two more/);
    await statusMatches(ann.page, /Your friend chooses: black, white or two more stones/);
    await statusMatches(eve.page, /Bob正在选择：执黑、执白或再摆两子/);
    assert.equal(await ann.page.isVisible('#swap-choice'), false, 'only the chooser is offered the choice');
    assert.equal(await eve.page.isVisible('#swap-choice'), false);
    await bob.page.waitForFunction(() => document.activeElement?.id === 'swap-black');
    await checkScreenshot(bob.ctx, bob.page, path.join(SHOTS, 'online-swap2-choose.png'));
    await bob.page.keyboard.press('Tab');
    await bob.page.keyboard.press('Tab');
    assert.equal(await bob.page.evaluate(() => document.activeElement?.id), 'swap-place2');
    await bob.page.keyboard.press('Enter');
    await statusMatches(bob.page, /Place two more stones: stone 1 of 2 \(White\)/);
    await statusMatches(eve.page, /Bob正在再摆两子：第 1 子，共 2 子/);
    await place(bob.page, 'k10', pages, 4);
    await place(bob.page, 'g7', pages, 5);
    // Ann chooses at five stones: black or white only
    await ann.page.waitForSelector('#swap-choice:not([hidden])');
    await statusMatches(ann.page, /Five stones are down: take black or take white/);
    assert.equal(await ann.page.isVisible('#swap-place2'), false);
    await checkScreenshot(eve.ctx, eve.page, path.join(SHOTS, 'online-swap2-spectator.png'));
    await ann.page.click('#swap-white');
    await statusMatches(ann.page, /You play White\. Your move\./);
    await statusMatches(bob.page, /You play Black\. Waiting for your friend/);
    assert.match((await ann.page.getAttribute('#seat-0 .stone-dot', 'class')) || '', /white/);
    assert.match((await eve.page.getAttribute('#seat-1 .stone-dot', 'class')) || '', /black/);
    // the first normal move: white's sixth stone
    await play(ann.page, 'l11', pages, 6);
    await statusMatches(bob.page, /Your move/);
    const all = await Promise.all(pages.map((p) => stones(p)));
    assert.equal(all[0].length, 6);
    assert.deepEqual(all[1], all[0]);
    assert.deepEqual(all[2], all[0]);
    assert.match(await statusOf(eve.page), /你在观战/);
    for (const p of [ann, bob, eve]) await p.ctx.close();
});

await browser.close();
const printed = await server.stop();
await test('online: the server reported no sanitizer error', async () => {
    assert.doesNotMatch(printed, /Sanitizer|runtime error/, printed.slice(0, 2000));
});
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`online: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
