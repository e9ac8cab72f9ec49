// lib.mjs: what the browser tests share: the real server process, the browser, the board's
// points on screen, and the checks on screenshots (not blank, not cut off).

import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

/**
 * Starts `$GMK_BIN serve --listen 127.0.0.1:PORT --db DB --quiet` (PORT 0: a free one) and reads
 * the URL it prints.
 * @param {string} bin @param {string} db @param {number} [port]
 * stop() ends it (SIGTERM) and gives back all it printed, where sanitizer reports would be.
 * @returns {Promise<{url: string, stop: () => Promise<string>}>}
 */
export function startServer(bin, db, port = 0) {
    return new Promise((resolve, reject) => {
        // the suites create many games from one address: past the default --write-limit (60)
        const args = ['serve', '--listen', `127.0.0.1:${port}`, '--db', db, '--quiet', '--write-limit', '10000'];
        const proc = spawn(bin, args, {
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        const timer = setTimeout(() => {
            proc.kill('SIGTERM');
            reject(new Error(`the server printed no URL in 30 s: ${out}`));
        }, 30000);
        const read = (/** @type {Buffer} */ d) => {
            out += d.toString();
            const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
            if (m) {
                clearTimeout(timer);
                resolve({
                    url: `http://127.0.0.1:${m[1]}/`,
                    stop: () =>
                        new Promise((done) => {
                            if (proc.exitCode !== null) return done(out);
                            proc.once('exit', () => done(out));
                            proc.kill('SIGTERM');
                            setTimeout(() => proc.kill('SIGKILL'), 10000).unref();
                        }),
                });
            }
        };
        proc.stdout.on('data', read);
        proc.stderr.on('data', read);
        proc.once('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`the server exited (${code}): ${out}`));
        });
    });
}

/** Debian's chromium, headless. Playwright gives each launch a fresh, temporary profile
 * (user-data-dir); each test then opens its own context (cookies, viewport, language, theme). */
export function launch() {
    return chromium.launch({
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: [
            '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
            '--disable-background-networking', '--disable-component-update', '--disable-sync',
        ],
    });
}

/** The centre of a board point on the screen, from the SVG's own transform.
 * @param {import('playwright-core').Page} page @param {string} name @returns {Promise<{x: number, y: number}>} */
export async function pointXY(page, name) {
    return page.evaluate((name) => {
        const svg = /** @type {SVGSVGElement} */ (document.querySelector('#board'));
        const vb = svg.viewBox.baseVal;
        const size = Math.round((vb.width - 88) / 40) + 1;
        const x = 'abcdefghijklmnopqrstuvwxyz'.indexOf(name[0]);
        const y = Number(name.slice(1)) - 1;
        const pt = new DOMPoint(44 + x * 40, 44 + (size - 1 - y) * 40).matrixTransform(svg.getScreenCTM());
        return { x: pt.x, y: pt.y };
    }, name);
}

/** The stones on the board, in drawing order: [{point, color}].
 * @param {import('playwright-core').Page} page @returns {Promise<{point: string, color: string}[]>} */
export function stones(page) {
    return page.$$eval('#board .marks > .stone', (els) =>
        els.map((e) => ({ point: e.getAttribute('data-point') || '', color: e.classList.contains('white') ? 'white' : 'black' })));
}

/** Waits until the board holds n stones. @param {import('playwright-core').Page} page @param {number} n */
export function waitStones(page, n, timeout = 30000) {
    return page.waitForFunction((n) => document.querySelectorAll('#board .marks > .stone').length === n, n, { timeout });
}

/** The status line. @param {import('playwright-core').Page} page */
export async function status(page) {
    return (await page.textContent('#status')) || '';
}

/**
 * Checks a screenshot as a person would first: not blank (the pixels vary), and the board not
 * cut off (its box inside the viewport, no sideways scroll). Decodes the PNG in a blank page.
 * @param {import('playwright-core').BrowserContext} ctx @param {import('playwright-core').Page} page
 * @param {string} path
 */
export async function checkScreenshot(ctx, page, path) {
    const png = await page.screenshot({ path });
    const vp = page.viewportSize();
    if (!vp) throw new Error('no viewport');
    const box = await page.locator('#board').boundingBox();
    if (!box) throw new Error(`${path}: the board is not shown`);
    if (box.x < 0 || box.y < 0 || box.x + box.width > vp.width + 0.5 || box.y + box.height > vp.height + 0.5) {
        throw new Error(`${path}: the board is cut off: ${JSON.stringify(box)} in ${vp.width}x${vp.height}`);
    }
    if (box.width < Math.min(vp.width, vp.height) * 0.5) throw new Error(`${path}: the board is tiny (${box.width} px)`);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (scroll > 0) throw new Error(`${path}: the page scrolls sideways by ${scroll} px`);
    const blank = await ctx.newPage();
    try {
        const stats = await blank.evaluate(async (b64) => {
            const img = new Image();
            img.src = `data:image/png;base64,${b64}`;
            await img.decode();
            const c = document.createElement('canvas');
            c.width = img.width;
            c.height = img.height;
            const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
            g.drawImage(img, 0, 0);
            const d = g.getImageData(0, 0, c.width, c.height).data;
            let sum = 0;
            let sq = 0;
            const n = d.length / 4;
            for (let i = 0; i < d.length; i += 4) {
                const l = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
                sum += l;
                sq += l * l;
            }
            const mean = sum / n;
            return { width: img.width, height: img.height, mean, variance: sq / n - mean * mean };
        }, png.toString('base64'));
        if (stats.width !== vp.width || stats.height !== vp.height) throw new Error(`${path}: ${stats.width}x${stats.height}`);
        if (stats.variance < 200) throw new Error(`${path}: looks blank (luminance variance ${stats.variance.toFixed(0)})`);
        return stats;
    } finally {
        await blank.close();
    }
}
