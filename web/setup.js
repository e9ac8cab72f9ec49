// setup.js: the new-game dialog: mode, rule, board size, level (with the ladder's names from
// the server's configuration) and who moves first. The last choice is remembered in
// localStorage and used for the first game of a new visit. The server checks every value.

import * as api from './api.js';
import { currentLang, t, serverText } from './i18n.js';
import { $ } from './app.js';

/** @typedef {import('./app.js').App} App */
/** @typedef {{mode: string, rule: string, size: number, level: number, human: string, opening?: string}} Choice */

export class Setup {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
        /** moves to start from ("play on from here"), or '' */
        this.moves = '';
        this.dialog = /** @type {HTMLDialogElement} */ ($('setup-dialog'));
        this.form = /** @type {HTMLFormElement} */ ($('setup-form'));
        this.fillChoices();
        this.form.addEventListener('change', () => this.showFields());
        this.form.addEventListener('submit', (e) => {
            e.preventDefault();
            this.start();
        });
        $('setup-cancel').addEventListener('click', () => this.dialog.close());
    }

    /** Fills the rule, size and level lists (again after a language switch). */
    fillChoices() {
        const c = this.app.config;
        /** @param {string} id @param {[string, string][]} options */
        const fill = (id, options) => {
            const sel = /** @type {HTMLSelectElement} */ ($(id));
            const keep = sel.value;
            sel.replaceChildren(...options.map(([v, label]) => new Option(label, v)));
            if (keep) sel.value = keep;
        };
        fill('setup-rule', c.rules.map((r) => [r, t('rule_' + r)]));
        fill('upload-rule', c.rules.map((r) => [r, t('rule_' + r)]));
        /** @type {[string, string][]} */
        const sizes = [];
        for (let n = c.sizes.min; n <= c.sizes.max; n++) sizes.push([String(n), `${n}×${n}`]);
        fill('setup-size', sizes);
        // each level with its rating on the players' scale (docs/accounts.md)
        fill('setup-level', c.levels.map((l) => [String(l.level), `${l.level} · ${currentLang() === 'zh' ? l.name_zh : l.name}${l.rating ? ` (${l.rating})` : ''}`]));
    }

    /** The remembered choice, or the server's defaults. @returns {Choice} */
    remembered() {
        const c = this.app.config;
        /** @type {Choice} */
        const d = { ...c.defaults };
        try {
            const saved = JSON.parse(localStorage.getItem('gmk.setup') || '{}');
            if (c.modes.includes(saved.mode)) d.mode = saved.mode;
            if (c.rules.includes(saved.rule)) d.rule = saved.rule;
            if (Number.isInteger(saved.size) && saved.size >= c.sizes.min && saved.size <= c.sizes.max) d.size = saved.size;
            if (c.levels.some((l) => l.level === saved.level)) d.level = saved.level;
            if (saved.human === 'black' || saved.human === 'white') d.human = saved.human;
            if (['free', 'swap', 'swap2'].includes(saved.opening)) d.opening = saved.opening;
        } catch (e) {
            // a damaged setting: the defaults
        }
        return d;
    }

    /** Opens the dialog, preset to a position to play on from (or to the last choice).
     * @param {{rule: string, size: number, moves: string} | null} from */
    open(from) {
        const d = this.remembered();
        this.moves = from ? from.moves : '';
        const f = this.form.elements;
        /** @param {string} name @param {string} value */
        const set = (name, value) => {
            const e = /** @type {HTMLInputElement | RadioNodeList} */ (f.namedItem(name));
            if (e) e.value = value;
        };
        set('mode', d.mode);
        set('rule', from ? from.rule : d.rule);
        set('size', String(from ? from.size : d.size));
        set('level', String(d.level));
        set('human', d.human);
        set('opening', from ? 'free' : d.opening || 'free');
        // a position to play on from is not an opening: the swap rules start on an empty board
        $('setup-opening-row').hidden = !!from;
        $('setup-error').textContent = '';
        this.showFields();
        this.dialog.showModal();
    }

    /** Shows the level and side only against the computer. */
    showFields() {
        const hvc = this.value('mode') === 'hvc';
        for (const e of this.form.querySelectorAll('.hvc-only')) /** @type {HTMLElement} */ (e).hidden = !hvc;
        $('setup-swap-note').hidden = this.value('opening') === 'free';
    }

    /** @param {string} name @returns {string} */
    value(name) {
        const e = /** @type {HTMLInputElement | RadioNodeList | null} */ (this.form.elements.namedItem(name));
        return e ? e.value : '';
    }

    async start() {
        /** @type {Choice} */
        const choice = {
            mode: this.value('mode'),
            rule: this.value('rule'),
            size: Number(this.value('size')),
            level: Number(this.value('level')),
            human: this.value('human'),
            opening: this.moves ? 'free' : this.value('opening'),
        };
        localStorage.setItem('gmk.setup', JSON.stringify(choice));
        /** @type {Record<string, unknown>} */
        const body = { ...choice };
        if (this.moves) body.moves = this.moves;
        const button = /** @type {HTMLButtonElement} */ ($('setup-start'));
        button.disabled = true;
        try {
            const s = await api.createGame(body);
            this.dialog.close();
            history.replaceState(null, '', location.pathname);
            this.app.game.follow(s);
            this.app.say('');
            this.app.showGame();
        } catch (e) {
            $('setup-error').textContent = e instanceof api.ApiError && e.status === 503 ? t('busy') : String(e instanceof Error ? serverText(e.message) : e);
        } finally {
            button.disabled = false;
        }
    }
}
