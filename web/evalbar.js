// evalbar.js: an evaluation as a person reads it (the server's `evaluation` objects, see
// docs/http-api.md): "Black 62%" or "White wins in 7" in the page's language, and the bar under
// the board whose dark part is black's win rate. The numbers come from the server
// (src/game/evaltext.c); this only words and draws them.

import { t } from './i18n.js';
import { $, colorName } from './app.js';

/**
 * @typedef {{score: number, winrate: number, black_winrate: number, proved: boolean,
 *            winner: string | null, moves: number | null}} Evaluation
 */

/** "Black 62%" for the side to move, or "White wins in 7".
 * @param {Evaluation} ev @param {string} toMove @returns {string} */
export function evalWords(ev, toMove) {
    if (ev.proved && ev.winner) return t('winsIn', colorName(ev.winner), ev.moves || 1);
    return t('winRate', colorName(toMove), ev.winrate);
}

/** Shows ev (for the position with toMove to play) on the bar, or hides the bar (null). The
 * bar is a meter: its value is black's win rate.
 * @param {Evaluation | null} ev @param {string} toMove */
export function showEvalBar(ev, toMove) {
    const bar = $('evalbar');
    if (!ev) {
        bar.hidden = true;
        return;
    }
    bar.hidden = false;
    const black = Math.max(0, Math.min(100, ev.black_winrate));
    const words = evalWords(ev, toMove);
    /** @type {HTMLElement} */ (bar.querySelector('.evalbar-fill')).style.width = `${black}%`;
    /** @type {HTMLElement} */ (bar.querySelector('.evalbar-text')).textContent = words;
    bar.setAttribute('aria-valuenow', String(black));
    bar.setAttribute('aria-valuetext', words);
    bar.setAttribute('aria-label', t('evalBar'));
}
