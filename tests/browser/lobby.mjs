// lobby.mjs: the lobby page (web/lobby.html) in real browsers (Debian's chromium, headless,
// Playwright) against the real `gomoku serve`: a seek posted in one browser appears in
// another's lobby with no reload and, accepted there, brings both to the same room (each
// holding a seat); the game appears in a third browser's list of games in progress; two
// players pressing "Play now" for one clock are paired; a name of HTML shows as text; the
// lobby's chat: a line typed (with the keyboard, in the labelled field) reaches another page as
// text, a reload keeps it, a viewer hides a person's lines and shows them again, in Chinese too;
// axe-core finds no serious or critical WCAG 2.1 A/AA violation on the page with its chat.
// Usage: node lobby.mjs OUTDIR (GMK_BIN set). Prints "ok"/"not ok" per test and a summary.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, startServer } from './lib.mjs';

const BIN = process.env.GMK_BIN || '';
const SHOTS = path.resolve(process.argv[2] || 'build/screenshots');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gmk-lobby-'));
fs.mkdirSync(SHOTS, { recursive: true });
const T = 30000;

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} Context */

const server = await startServer(BIN, path.join(tmp, 'games.db'));
const browser = await launch();
/** @type {string[]} */
const problems = [];

/** A person in the lobby, with a name typed. @param {string} name @returns {Promise<{ctx: Context, page: Page}>} */
async function person(name) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const page = await ctx.newPage();
    page.setDefaultTimeout(T);
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.goto(new URL('/', server.url).href);
    await page.waitForSelector('body[data-ready]');
    await page.click('#lobby-link');
    await page.waitForSelector('body[data-ready]');
    await page.fill('#lobby-name', name);
    return { ctx, page };
}

/** A screenshot of a page without a board: it must not scroll sideways.
 * @param {Page} page @param {string} file */
async function shot(page, file) {
    await page.screenshot({ path: file });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(scroll <= 0, `${file}: the page scrolls sideways by ${scroll} px`);
}

let passed = 0;
let failed = 0;
/** @param {string} name @param {() => Promise<void>} fn */
async function test(name, fn) {
    const t0 = Date.now();
    try {
        await fn();
        assert.deepEqual(problems, []);
        passed++;
        console.log(`ok - ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
        failed++;
        console.log(`not ok - ${name}\n  ${String(/** @type {Error} */ (e).stack || e).split('\n').join('\n  ')}`);
    }
    problems.length = 0;
}

await test('lobby: a seek appears live elsewhere, is accepted, and both players land in one room', async () => {
    const ann = await person('<b>Ann</b>');
    const bob = await person('Bob');
    const eve = await person('Eve');
    await ann.page.selectOption('#seek-form select[name=clock]', '10+5');
    await ann.page.selectOption('#seek-form select[name=color]', 'white');
    await ann.page.click('#seek-post');
    await bob.page.waitForSelector('#seeks tr[data-id] button.accept');
    const row = await bob.page.$$eval('#seeks tr[data-id] td', (tds) => tds.map((td) => td.textContent));
    assert.equal(row[0], '<b>Ann</b>', 'the name as text');
    assert.equal(row[3], '10+5');
    assert.equal(await bob.page.$$eval('#seeks b', (x) => x.length), 0, 'no element made of a name');
    assert.equal(await ann.page.textContent('#seeks tr[data-id] button'), 'Cancel', 'her own seek');
    await shot(bob.page, path.join(SHOTS, 'lobby-seek.png'));
    await bob.page.click('#seeks tr[data-id] button.accept');
    await bob.page.waitForURL(/online\.html#room=/);
    await ann.page.waitForURL(/online\.html#room=/);
    for (const p of [ann, bob]) await p.page.waitForSelector('body[data-room=playing]');
    assert.equal(ann.page.url().split('#')[1], bob.page.url().split('#')[1], 'the same room');
    assert.equal(await ann.page.textContent('#seat-0 .name'), '<b>Ann</b> (you)');
    assert.equal(await bob.page.textContent('#seat-1 .name'), 'Bob (you)');
    assert.match(await bob.page.textContent('#status') || '', /Your move/, 'Bob plays black: Ann asked for white');
    // the game is listed for Eve, live
    await eve.page.waitForSelector('#games tr[data-code]', { timeout: 10000 });
    assert.equal(await eve.page.textContent('#games tr[data-code] td.name'), 'Bob – <b>Ann</b>');
    assert.equal(await eve.page.isVisible('#seeks tr[data-id]'), false, 'the seek is gone');
    await shot(eve.page, path.join(SHOTS, 'lobby-games.png'));
    for (const p of [ann, bob, eve]) await p.ctx.close();
});

await test('lobby: two players pressing "Play now" for one clock are paired', async () => {
    const cid = await person('Cid');
    const dan = await person('Dan');
    await cid.page.selectOption('#play-form select[name=clock]', '30+0');
    await cid.page.click('#play');
    await cid.page.waitForSelector('#waiting:not([hidden])');
    await dan.page.selectOption('#play-form select[name=clock]', '30+0');
    await dan.page.click('#play');
    await dan.page.waitForURL(/online\.html#room=/);
    await cid.page.waitForURL(/online\.html#room=/);
    for (const p of [cid, dan]) await p.page.waitForSelector('body[data-room=playing]');
    assert.equal(cid.page.url().split('#')[1], dan.page.url().split('#')[1]);
    assert.equal(await cid.page.textContent('#seat-0 .name'), 'Cid (you)');
    for (const p of [cid, dan]) await p.ctx.close();
});

await test('lobby chat: a line typed in one page (Enter) appears in another, as text; a reload keeps it; a person can be hidden', async () => {
    const ann = await person('Ann');
    const bob = await person('Bob');
    // the field has a visible label: found by it, as a screen reader names it
    const field = ann.page.getByLabel('Say something to everyone in the lobby');
    await field.fill('hello <b>lobby</b> \u202Eevil');
    await field.press('Enter');
    await bob.page.waitForSelector('#chat-lines li .text');
    const line = await bob.page.$$eval('#chat-lines li', (lis) => lis.map((li) => [
        li.querySelector('.who')?.textContent, li.querySelector('.text')?.textContent]));
    assert.deepEqual(line, [['Ann', 'hello <b>lobby</b> evil']], 'the name and line as text, the bidi control gone');
    assert.equal(await bob.page.$$eval('#chat-lines b', (x) => x.length), 0, 'no element made of a line');
    await ann.page.waitForFunction(() => document.querySelectorAll('#chat-lines li').length === 1);
    // the line may reach Ann's page by the live stream before her send's answer, which empties
    // the field: wait for that answer (a field never emptied fails here, on the timeout)
    await ann.page.waitForFunction(() => document.getElementById('chat-text').value === '', null, { timeout: 5000 })
        .catch(() => {});
    assert.equal(await field.inputValue(), '', 'the field is emptied once sent');
    await shot(bob.page, path.join(SHOTS, 'lobby-chat.png'));
    // a reload starts with the stored line
    await bob.page.reload();
    await bob.page.waitForSelector('body[data-ready]');
    await bob.page.waitForSelector('#chat-lines li .text');
    assert.equal(await bob.page.textContent('#chat-lines li .text'), 'hello <b>lobby</b> evil');
    // Bob hides Ann: her lines go, in his page only; he may show them again
    await bob.page.click('#chat-lines li button.hide');
    assert.equal(await bob.page.isVisible('#chat-lines li'), false);
    assert.equal(await bob.page.isVisible('#chat-hidden'), true);
    await field.fill('still there?');
    await field.press('Enter');
    await ann.page.waitForFunction(() => document.querySelectorAll('#chat-lines li').length === 2);
    await bob.page.waitForFunction(() => document.querySelectorAll('#chat-lines li').length === 2);
    assert.equal(await bob.page.isVisible('#chat-lines li'), false, 'a hidden person\'s new line is hidden too');
    await bob.page.click('#chat-unhide');
    await bob.page.waitForSelector('#chat-lines li:nth-child(2) .text');
    assert.equal(await bob.page.textContent('#chat-lines li:nth-child(2) .text'), 'still there?');
    // in Chinese
    await bob.page.selectOption('#lang', 'zh');
    assert.equal(await bob.page.textContent('#chat-label'), '对大厅里的所有人说');
    assert.equal(await bob.page.textContent('#lobby-chat-title'), '大厅聊天');
    assert.equal(await bob.page.textContent('#chat-send'), '发送');
    await shot(bob.page, path.join(SHOTS, 'lobby-chat-zh.png'));
    for (const p of [ann, bob]) await p.ctx.close();
});

const AXE = fs.readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

await test('axe-core: no serious or critical violation on the lobby page with its chat, in English and Chinese', async () => {
    /** @type {string[]} */
    const found = [];
    for (const locale of ['en-US', 'zh-CN']) {
        const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale, bypassCSP: true });
        const page = await ctx.newPage();
        page.setDefaultTimeout(T);
        await page.goto(new URL('/lobby.html', server.url).href);
        await page.waitForSelector('body[data-ready]');
        await page.waitForSelector('#chat-lines li');
        await page.evaluate(AXE);
        const r = await page.evaluate(async () => {
            // @ts-ignore: axe is the script evaluated above
            const res = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
            return res.violations.filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
                .map((/** @type {any} */ v) => `${v.id}: ${v.nodes.slice(0, 2).map((/** @type {any} */ x) => x.target.join(' ')).join(', ')}`);
        });
        for (const v of r) found.push(`${locale}: ${v}`);
        await ctx.close();
    }
    assert.deepEqual(found, []);
});

await browser.close();
const printed = await server.stop();
await test('lobby: the server reported no sanitizer error', async () => {
    assert.doesNotMatch(printed, /Sanitizer|runtime error/, printed.slice(0, 2000));
});
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`lobby: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
