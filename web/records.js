// records.js: the games dialog: the scoreboard (the store's, as `gomoku stats` shows it), the
// list of past games with their replay and downloads (PSQ, SGF, move string), and opening a
// record file to replay it. The server reads and checks uploaded records and says why it
// refuses one.

import * as api from './api.js';
import * as people from './people_api.js';
import { currentLang, t, serverText } from './i18n.js';
import { $ } from './app.js';

/** @typedef {import('./app.js').App} App */

/** @param {string} tag @param {string} [text] @param {string} [cls] @returns {HTMLElement} */
function make(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
}

export class GamesDialog {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
        this.dialog = /** @type {HTMLDialogElement} */ ($('games-dialog'));
        $('games-close').addEventListener('click', () => this.dialog.close());
        $('upload-open').addEventListener('click', () => this.upload());
    }

    open() {
        $('upload-error').textContent = '';
        const rule = /** @type {HTMLSelectElement} */ ($('upload-rule'));
        rule.value = this.app.position().rule;
        $('scoreboard').replaceChildren();
        $('games-list').replaceChildren();
        this.dialog.showModal();
        this.load();
    }

    /** A game has ended: the scoreboard changed. */
    changed() {
        if (this.dialog.open) this.load();
    }

    async load() {
        const board = $('scoreboard');
        const list = $('games-list');
        try {
            // this visitor's own scoreboard (its browser's games, or its account's), with the
            // online players' table, which is public; the list: its own games and the public
            // (online) ones, marked so (defect 9: every browser's games were "you vs computer")
            const [stats, mine, games] = await Promise.all([api.getStats(), people.myStats(), api.listGames(100)]);
            // online games are public: their line is everyone's, the rest are the visitor's own
            /** @type {api.ScoreLine[]} */
            const lines = [...mine.lines.filter((l) => l.mode !== 'online'), ...stats.lines.filter((l) => l.mode === 'online')];
            board.replaceChildren(this.scoreTable({
                lines, total: lines.reduce((a, l) => a + l.games, 0), online_players: stats.online_players,
            }));
            // a game nobody has moved in yet is not worth listing
            const played = games.games.filter((g) => g.moves > 0);
            list.replaceChildren(...played.map((g) => this.gameItem(g)));
            if (!played.length) list.replaceChildren(make('li', t('noGames')));
        } catch (e) {
            const msg = e instanceof api.ApiError && e.status === 503 ? t('busy') : e instanceof Error ? serverText(e.message) : String(e);
            board.replaceChildren(make('p', msg, 'error'));
        }
    }

    /** @param {api.Stats} stats @returns {HTMLElement} */
    scoreTable(stats) {
        if (!stats.lines.length) return make('p', t('scoreEmpty'));
        const table = make('table', undefined, 'score');
        const head = make('tr');
        for (const k of ['scMode', 'scLevel', 'scGames', 'scWon', 'scLost', 'scDrawn']) head.append(make('th', t(k)));
        table.append(head);
        for (const l of stats.lines) {
            const tr = make('tr');
            const level = this.app.config.levels.find((x) => x.level === l.level);
            const name = level ? (currentLang() === 'zh' ? level.name_zh : level.name) : l.level_name;
            tr.append(make('td', t(l.mode)), make('td', l.mode === 'human-computer' ? `${l.level} ${name}` : '—'));
            // against the computer: the human's wins and losses; between people (at one device
            // or online) nobody is "you": black's and white's wins (defect 4: they read 0 and 0)
            const hvc = l.mode === 'human-computer';
            tr.append(make('td', String(l.games), 'n'));
            tr.append(make('td', hvc ? String(l.wins) : t('sideWins', t('black'), l.black_wins || 0), 'n'));
            tr.append(make('td', hvc ? String(l.losses) : t('sideWins', t('white'), l.white_wins || 0), 'n'));
            tr.append(make('td', String(l.draws), 'n'));
            table.append(tr);
        }
        const scroll = make('div', undefined, 'score-wrap');
        scroll.append(table);
        const wrap = make('div');
        wrap.append(scroll, make('p', t('total', stats.total), 'score-total'));
        const players = stats.online_players || [];
        if (players.length) {
            const pt = make('table', undefined, 'score online-players');
            const h = make('tr');
            for (const k of ['scPlayer', 'scGames', 'scWon', 'scLost', 'scDrawn']) h.append(make('th', t(k)));
            pt.append(h);
            for (const p of players) {
                const tr = make('tr');
                tr.append(make('td', p.name));
                for (const n of [p.games, p.wins, p.losses, p.draws]) tr.append(make('td', String(n), 'n'));
                pt.append(tr);
            }
            const pw = make('div', undefined, 'score-wrap');
            pw.append(make('h3', t('onlinePlayers')), pt);
            wrap.append(pw);
        }
        return wrap;
    }

    /** @param {api.GameSummary} g @returns {HTMLElement} */
    gameItem(g) {
        const li = make('li');
        li.dataset.id = String(g.id);
        const date = new Date(g.started * 1000).toLocaleString(currentLang() === 'zh' ? 'zh-CN' : 'en', {
            dateStyle: 'short', timeStyle: 'short',
        });
        let state = t('unfinished');
        if (g.abandoned) state = t('abandoned');
        else if (g.finished) state = g.outcome === 'draw' ? t('draw') : g.outcome === 'white wins' ? t('wins', t('white')) : t('wins', t('black'));
        const who = g.owner ? t(g.mode) : `${t('publicGame')}: ${g.black || '?'} – ${g.white || '?'}`;
        const text = `#${g.id} · ${date} · ${t('ruleShort_' + g.rule)} ${g.size}×${g.size} · ${who} · ${t('movesN', g.moves)} · ${state}`;
        li.append(make('span', text, 'game-desc'));
        const actions = make('span', undefined, 'game-actions');
        const replay = /** @type {HTMLButtonElement} */ (make('button', t('replay')));
        replay.type = 'button';
        replay.addEventListener('click', () => this.replay(g.id));
        actions.append(replay);
        // this browser's unfinished games go on where they stopped (not only replayed)
        if (g.owner && !g.finished && (g.mode === 'hvc' || g.mode === 'hvh')) {
            const resume = /** @type {HTMLButtonElement} */ (make('button', t('resume')));
            resume.type = 'button';
            resume.className = 'resume';
            resume.addEventListener('click', () => this.resume(g.id));
            actions.append(resume);
        }
        if (g.moves > 0) {
            const review = /** @type {HTMLButtonElement} */ (make('button', t('review')));
            review.type = 'button';
            review.className = 'review';
            review.addEventListener('click', async () => {
                await this.replay(g.id);
                await this.app.review.start();
            });
            actions.append(review);
        }
        for (const [f, label] of /** @type {['psq' | 'sgf' | 'moves', string][]} */ ([['psq', 'PSQ'], ['sgf', 'SGF'], ['moves', 'TXT']])) {
            const a = /** @type {HTMLAnchorElement} */ (make('a', label));
            a.href = api.recordUrl(g.id, f);
            a.download = '';
            actions.append(a);
        }
        li.append(actions);
        return li;
    }

    /** Plays on in one of this browser's unfinished games. @param {number} id */
    async resume(id) {
        this.dialog.close();
        if (await this.app.game.open(id)) {
            localStorage.setItem('gmk.game', String(id));
            this.app.showGame();
        }
    }

    /** @param {number} id */
    async replay(id) {
        try {
            const s = await api.getGame(id);
            this.dialog.close();
            this.app.replay.show({ title: t('replayOf', id), rule: s.rule, size: s.size, moves: s.moves, result: s.result, gameId: id });
        } catch (e) {
            this.app.fail(e);
        }
    }

    async upload() {
        const input = /** @type {HTMLInputElement} */ ($('upload-file'));
        const err = $('upload-error');
        err.textContent = '';
        const file = input.files && input.files[0];
        if (!file) return;
        if (file.size > 60000) {
            err.textContent = t('tooLarge');
            return;
        }
        const rule = /** @type {HTMLSelectElement} */ ($('upload-rule')).value;
        try {
            const text = await file.text();
            const r = await api.readRecord(text, rule, 15);
            this.dialog.close();
            this.app.replay.show({
                title: t('uploaded', r.format.toUpperCase(), r.moves.length), rule: r.rule, size: r.size,
                moves: r.moves, result: r.result, gameId: null,
            });
        } catch (e) {
            err.textContent = e instanceof api.ApiError && e.status === 503 ? t('busy') : e instanceof Error ? serverText(e.message) : String(e);
        }
    }
}
