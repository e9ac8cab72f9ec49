// test.mjs: the web game in a real browser (Debian's chromium, headless, driven by Playwright)
// against the real `gomoku serve` ($GMK_BIN) on a free loopback port with a fresh database.
// A player's view: clicks, taps and keys on the board, and what the page then shows.
// Screenshots go to build/screenshots/ and are checked to be neither blank nor cut off.
// Usage: node test.mjs OUTDIR (GMK_BIN set). Prints "ok"/"not ok" per test and a summary line.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkScreenshot, launch, pointXY, startServer, status, stones, waitStones } from './lib.mjs';

const BIN = process.env.GMK_BIN || '';
const SHOTS = path.resolve(process.argv[2] || 'build/screenshots');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gmk-browser-'));
fs.mkdirSync(SHOTS, { recursive: true });
const T = 30000; // generous: the suite also runs under ASan

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').BrowserContext} Context */

let server = await startServer(BIN, path.join(tmp, 'games.db'));
let printed = '';
const browser = await launch();
/** @type {string[]} */
const problems = [];

/** A fresh browser context (its own cookies and storage) and page, watching for script errors
 * and CSP violations.
 * @param {import('playwright-core').BrowserContextOptions} [opts]
 * @returns {Promise<{ctx: Context, page: Page}>} */
async function open(opts) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', acceptDownloads: true, ...opts });
    const page = await ctx.newPage();
    page.setDefaultTimeout(T);
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready]');
    return { ctx, page };
}

/** Waits until a dialog has closed. @param {Page} page @param {string} id */
function closed(page, id) {
    return page.waitForFunction((id) => !(/** @type {HTMLDialogElement} */ (document.getElementById(id))).open, id);
}

/** Clicks a board point with the mouse. @param {Page} page @param {string} name */
async function click(page, name) {
    const p = await pointXY(page, name);
    await page.mouse.click(p.x, p.y);
}

/** Starts a game through the setup dialog. @param {Page} page
 * @param {{mode?: string, rule?: string, size?: number, level?: number, human?: string}} c */
async function newGame(page, c) {
    await page.click('#new-game');
    await page.waitForSelector('#setup-dialog[open]');
    await page.check(`input[name=mode][value=${c.mode || 'hvc'}]`);
    await page.selectOption('#setup-rule', c.rule || 'freestyle');
    await page.selectOption('#setup-size', String(c.size || 15));
    if ((c.mode || 'hvc') === 'hvc') {
        await page.selectOption('#setup-level', String(c.level || 1));
        await page.check(`input[name=human][value=${c.human || 'black'}]`);
    }
    await page.click('#setup-start');
    await closed(page, 'setup-dialog');
    await page.waitForFunction(() => document.querySelectorAll('#board .marks > .stone').length === 0);
}

/** The scoreboard's total, read from the games dialog. @param {Page} page */
async function scoreTotal(page) {
    await page.click('#open-games');
    await page.waitForSelector('#scoreboard > *');
    const text = (await page.textContent('#scoreboard')) || '';
    await page.click('#games-close');
    const m = /Total: (\d+)/.exec(text);
    return m ? Number(m[1]) : /No finished games/.test(text) ? 0 : NaN;
}

/** Waits for the human's turn (the status says "(you)") or the end of the game. @param {Page} page */
function waitTurn(page) {
    return page.waitForFunction(() => {
        const s = document.querySelector('#status');
        return !!s && (s.classList.contains('over') || /\(you\)/.test(s.textContent || ''));
    }, null, { timeout: T });
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

/** @type {string} the PSQ downloaded after the whole game */
let psqFile = '';

await test('a whole game against level 1 by clicking, then the scoreboard is up by one', async () => {
    const { ctx, page } = await open();
    const before = await scoreTotal(page);
    assert.ok(Number.isInteger(before), 'the scoreboard shows a total');
    await newGame(page, { level: 1 });
    assert.match(await status(page), /Black to move \(you\)/);
    await checkScreenshot(ctx, page, path.join(SHOTS, 'desktop-light-new.png'));
    // row by row from a1: the computer wins or we do; either way the game must end
    const order = [];
    for (let y = 1; y <= 15; y++) for (const c of 'abcdefghijklmno') order.push(c + y);
    let moves = 0;
    while (!(await page.locator('#status.over').count())) {
        assert.ok(moves++ < 120, 'the game ends');
        const taken = new Set((await stones(page)).map((s) => s.point));
        const p = order.find((q) => !taken.has(q));
        assert.ok(p, 'a free point');
        const n = taken.size;
        await click(page, /** @type {string} */ (p));
        await page.waitForFunction((n) => document.querySelectorAll('#board .marks > .stone').length > n, n);
        await waitTurn(page);
    }
    const text = await status(page);
    assert.match(text, /(Black|White) wins: five in a row [a-o]\d+-[a-o]\d+\. You (win!|lose\.)/);
    assert.equal(await page.locator('#board .winline').count(), 1, 'the winning line is drawn');
    assert.ok(await page.locator('#resign').isDisabled(), 'no resigning a finished game');
    await page.check('#numbers');
    assert.equal(await page.textContent('#board .marks > text.num >> nth=0'), '1', 'move numbers are shown');
    await checkScreenshot(ctx, page, path.join(SHOTS, 'desktop-light-over.png'));
    assert.equal(await scoreTotal(page), before + 1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#dl-psq')]);
    psqFile = path.join(tmp, download.suggestedFilename() || 'game.psq');
    await download.saveAs(psqFile);
    await ctx.close();
});

await test('the downloaded PSQ is accepted by gomoku import', async () => {
    assert.ok(psqFile, 'a PSQ was downloaded');
    assert.match(fs.readFileSync(psqFile, 'utf8'), /^Piskvorky 15x15/);
    const out = execFileSync(BIN, ['import', '--db', path.join(tmp, 'import.db'), psqFile], { encoding: 'utf8' });
    assert.match(out, /\d/);
});

await test('undo, redo, resign with confirmation, new game', async () => {
    const { ctx, page } = await open();
    await newGame(page, { level: 1 });
    await click(page, 'h8');
    await waitStones(page, 2);
    await waitTurn(page);
    await page.click('#undo');
    await waitStones(page, 0);
    await page.click('#redo');
    await waitStones(page, 2);
    await page.click('#resign');
    await page.waitForSelector('#resign-dialog[open]');
    await page.click('#resign-no');
    assert.ok(!(await page.locator('#status.over').count()), 'no means no');
    await page.click('#resign');
    await page.click('#resign-yes');
    await page.waitForSelector('#status.over');
    assert.match(await status(page), /White wins: Black resigned\. You lose\./);
    await newGame(page, { level: 1 });
    assert.match(await status(page), /Black to move \(you\)/);
    await ctx.close();
});

await test('the computer thinks ("thinking… 1.2 s") and its move arrives by events, not by polling', async () => {
    const { ctx, page } = await open();
    await newGame(page, { level: 6 });
    await click(page, 'h8');
    await waitStones(page, 1);
    /** @type {string[]} */
    const polls = [];
    page.on('request', (r) => {
        if (r.method() === 'GET' && /\/api\/games\/\d+$/.test(r.url())) polls.push(r.url());
    });
    await page.waitForFunction(() => /White \(computer\) thinking… \d+\.\d s/.test(document.querySelector('#status')?.textContent || ''));
    await waitStones(page, 2);
    await waitTurn(page);
    assert.deepEqual(polls, [], 'no polling while the computer thinks');
    await page.click('#hint');
    await page.locator('#board .hint').waitFor();
    assert.match(await status(page), /Hint: [a-o]\d+/);
    await ctx.close();
});

await test('keyboard: arrows move the cursor, Enter plays', async () => {
    const { ctx, page } = await open();
    await newGame(page, { mode: 'hvh' });
    await page.focus('#board');
    await page.keyboard.press('ArrowUp'); // shows the cursor at the centre
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await waitStones(page, 1);
    assert.deepEqual(await stones(page), [{ point: 'g9', color: 'black' }]);
    await ctx.close();
});

await test('renju: black\'s forbidden points are marked with their kind', async () => {
    const { ctx, page } = await open({ colorScheme: 'dark' });
    await newGame(page, { mode: 'hvh', rule: 'renju' });
    // black h9 h10 i8 j8 make h8 a double-three; white plays far away
    const seq = ['h9', 'a1', 'h10', 'a3', 'i8', 'a5', 'j8', 'a7'];
    for (let i = 0; i < seq.length; i++) {
        await click(page, seq[i]);
        await waitStones(page, i + 1);
    }
    const mark = page.locator('#board .forbidden[data-point=h8]');
    await mark.waitFor();
    assert.equal(await mark.getAttribute('data-kind'), 'double-three');
    assert.equal(await mark.locator('title').textContent(), 'h8: double-three');
    const p = await pointXY(page, 'h8');
    // a status message that arrives after the hover replaces its text, so hover again (a move
    // of a pixel or two within the point) until the message names the point
    let shown = false;
    for (let i = 0; i < 20 && !shown; i++) {
        await page.mouse.move(p.x + (i % 2), p.y);
        shown = await page.waitForFunction(() => /h8 is forbidden for black \(double-three\)/.test(document.querySelector('#message')?.textContent || ''), null, { timeout: 1500 })
            .then(() => true, () => false);
    }
    assert.ok(shown, 'hovering h8 says why black may not play there');
    await checkScreenshot(ctx, page, path.join(SHOTS, 'desktop-dark-renju.png'));
    await page.mouse.click(p.x, p.y);
    await page.waitForTimeout(300);
    assert.equal((await stones(page)).length, 8, 'the forbidden point was not played');
    await click(page, 'a9'); // black plays elsewhere: white's turn has no marks
    await waitStones(page, 9);
    assert.equal(await page.locator('#board .forbidden').count(), 0);
    await ctx.close();
});

await test('a reload in the middle of a game restores it', async () => {
    const { ctx, page } = await open();
    await newGame(page, { level: 1 });
    await click(page, 'h8');
    await waitStones(page, 2);
    await waitTurn(page);
    const before = await stones(page);
    const info = await page.textContent('#info');
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, 2);
    assert.deepEqual(await stones(page), before);
    assert.equal(await page.textContent('#info'), info);
    assert.match(await status(page), /Black to move \(you\)/);
    await ctx.close();
});

await test('after the server restarts, a reload continues the same game', async () => {
    const { ctx, page } = await open();
    await newGame(page, { level: 1 });
    await click(page, 'h8');
    await waitStones(page, 2);
    await waitTurn(page);
    const before = await stones(page);
    printed += await server.stop();
    server = await startServer(BIN, path.join(tmp, 'games.db'), Number(new URL(server.url).port));
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, 2);
    assert.deepEqual(await stones(page), before);
    const free = ['j10', 'g6', 'j6'].find((p) => !before.some((s) => s.point === p)) || 'a1';
    await click(page, free);
    await waitStones(page, 4);
    await ctx.close();
});

await test('a phone (390x844): the first tap shows the stone, the second plays it; no sideways scroll', async () => {
    for (const scheme of /** @type {const} */ (['light', 'dark'])) {
        const { ctx, page } = await open({
            viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, colorScheme: scheme,
        });
        await newGame(page, { level: 1 });
        const p = await pointXY(page, 'h8');
        await page.touchscreen.tap(p.x, p.y);
        await page.locator('#board .ghost[data-point=h8]').waitFor();
        assert.equal((await stones(page)).length, 0, 'one tap plays nothing');
        const q = await pointXY(page, 'j10');
        await page.touchscreen.tap(q.x, q.y); // a mis-tap elsewhere only moves the ghost
        await page.locator('#board .ghost[data-point=j10]').waitFor();
        assert.equal((await stones(page)).length, 0);
        if (scheme === 'light') await checkScreenshot(ctx, page, path.join(SHOTS, 'phone-light-tap.png'));
        await page.touchscreen.tap(q.x, q.y);
        await waitStones(page, 2);
        assert.equal((await stones(page))[0].point, 'j10');
        await waitTurn(page);
        if (scheme === 'dark') {
            await checkScreenshot(ctx, page, path.join(SHOTS, 'phone-dark-game.png'));
            await page.click('#open-games');
            await page.waitForSelector('#games-list li');
            await checkScreenshot(ctx, page, path.join(SHOTS, 'phone-dark-games.png'));
            await page.click('#games-close');
        } else {
            await page.click('#new-game');
            await page.waitForSelector('#setup-dialog[open]');
            await checkScreenshot(ctx, page, path.join(SHOTS, 'phone-light-setup.png'));
            await page.click('#setup-cancel');
        }
        await ctx.close();
    }
});

await test('Chinese: from the browser\'s language, and the switch is remembered', async () => {
    const { ctx, page } = await open({ locale: 'zh-CN' });
    assert.equal(await page.textContent('#title'), '五子棋');
    await newGame(page, { level: 1 });
    assert.match(await status(page), /轮到黑方（你）/);
    await click(page, 'h8');
    await waitStones(page, 2);
    await page.waitForFunction(() => /轮到黑方（你）/.test(document.querySelector('#status')?.textContent || ''));
    await checkScreenshot(ctx, page, path.join(SHOTS, 'desktop-zh.png'));
    await page.click('#resign');
    assert.equal(await page.textContent('#resign-yes'), '认输');
    await page.click('#resign-yes');
    await page.waitForSelector('#status.over');
    assert.equal(await status(page), '白方胜：黑方认输。你输了。');
    await page.selectOption('#lang', 'en');
    assert.equal(await status(page), 'White wins: Black resigned. You lose.');
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    assert.equal(await page.textContent('#title'), 'Gomoku');
    await ctx.close();
});

await test('a share link opens the position to replay, analyse and play on from', async () => {
    const { ctx, page } = await open();
    await page.goto(`${server.url}#rule=freestyle&size=15&moves=h8i9h9i10`);
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, 4);
    assert.match(await page.textContent('#rp-ply') || '', /Move 4 of 4/);
    await page.click('#rp-prev');
    await waitStones(page, 3);
    await page.click('#analyse');
    await page.waitForSelector('#analysis-out .an-best');
    assert.match(await page.textContent('#analysis-out .an-best') || '', /^[a-o]\d+$/);
    assert.ok(await page.locator('#board .analysis').count() >= 1, 'the lines are drawn');
    await checkScreenshot(ctx, page, path.join(SHOTS, 'desktop-light-analysis.png'));
    await page.click('#play-on');
    await page.check('input[name=mode][value=hvc]');
    await page.check('input[name=human][value=white]');
    await page.click('#setup-start');
    await closed(page, 'setup-dialog');
    await page.waitForSelector('#game-controls:not([hidden])');
    await waitStones(page, 3);
    assert.match(await status(page), /White to move \(you\)/);
    await ctx.close();
});

await test('records: upload one to replay, a bad one is refused with the reason; past games list', async () => {
    const { ctx, page } = await open();
    await page.click('#open-games');
    await page.waitForSelector('#games-list li');
    const bad = path.join(tmp, 'bad.txt');
    fs.writeFileSync(bad, 'h8h8\n');
    await page.setInputFiles('#upload-file', bad);
    await page.click('#upload-open');
    await page.waitForFunction(() => (document.querySelector('#upload-error')?.textContent || '').length > 0);
    await checkScreenshot(ctx, page, path.join(SHOTS, 'desktop-light-games.png'));
    await page.setInputFiles('#upload-file', psqFile);
    await page.click('#upload-open');
    await closed(page, 'games-dialog');
    await page.waitForSelector('#replay-controls:not([hidden])');
    const n = (await stones(page)).length;
    assert.ok(n >= 9, 'the record is shown');
    await page.click('#rp-first');
    await waitStones(page, 0);
    await page.click('#rp-next');
    await waitStones(page, 1);
    await ctx.close();
});

await test('"the server is busy" when the server answers 503', async () => {
    const { ctx, page } = await open();
    // the one response made up here: a full engine queue is hard to reach on purpose
    await page.route('**/api/analyze', (r) => r.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"the server is busy"}' }));
    await page.click('#analyse');
    await page.waitForFunction(() => /server is busy/.test(document.querySelector('#analysis-out')?.textContent || ''));
    await ctx.close();
});

await browser.close();
printed += await server.stop();
await test('the server reported no sanitizer error', async () => {
    assert.doesNotMatch(printed, /Sanitizer|runtime error/, printed.slice(0, 2000));
});
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`browser: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
