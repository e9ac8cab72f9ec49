// people_api.js: the account and players routes of docs/http-api.md ("Accounts", "Ratings and
// players") for account.js, players.js and online.js. Every POST is JSON (the server refuses
// any other type) from this page's origin; the session is the server's HttpOnly cookie.

import { ApiError } from './api.js';

/**
 * @typedef {object} Account
 * @property {number} id
 * @property {string} name
 * @property {number} created
 */
/**
 * @typedef {object} Rating
 * @property {string} rule
 * @property {string} tc
 * @property {number} rating
 * @property {number} deviation
 * @property {boolean} provisional
 * @property {number} games
 * @property {number} wins
 * @property {number} losses
 * @property {number} draws
 * @property {{game: number, at: number, rating: number, deviation: number}[]} [history]
 * @property {number} [rank]
 * @property {string} [name]
 */

/** @param {string} method @param {string} path @param {unknown} [body] @returns {Promise<any>} */
async function request(method, path, body) {
    /** @type {RequestInit} */
    const init = { method, credentials: 'same-origin' };
    if (method === 'POST') {
        init.headers = { 'Content-Type': 'application/json' };
        init.body = JSON.stringify(body ?? {});
    }
    let res;
    try {
        res = await fetch(path, init);
    } catch (e) {
        throw new ApiError(0, String(e));
    }
    let data = null;
    try {
        data = await res.json();
    } catch {
        data = null;
    }
    if (!res.ok) throw new ApiError(res.status, String((data && data.error) || res.statusText));
    return data;
}

/** @returns {Promise<Account | null>} */
export const me = async () => (await request('GET', '/api/account')).account;
/** @param {string} name @param {string} password @returns {Promise<Account>} */
export const signUp = async (name, password) => (await request('POST', '/api/account/signup', { name, password })).account;
/** @param {string} name @param {string} password @returns {Promise<Account>} */
export const logIn = async (name, password) => (await request('POST', '/api/account/login', { name, password })).account;
export const logOut = () => request('POST', '/api/account/logout');
/** @returns {Promise<{id: number, created: number, seen: number, expires: number, agent: string, current: boolean}[]>} */
export const sessions = async () => (await request('GET', '/api/account/sessions')).sessions;
/** @param {number | null} id null: every other one @returns {Promise<{ended: number}>} */
export const endSessions = (id) => request('POST', '/api/account/sessions/end', id === null ? { others: true } : { id });
/** @param {string} password @param {string} next */
export const changePassword = (password, next) => request('POST', '/api/account/password', { password, new_password: next });
/** @param {string} password */
export const deleteAccount = (password) => request('POST', '/api/account/delete', { password });
/** @returns {Promise<{whose: string, games: any[]}>} */
export const myGames = () => request('GET', '/api/account/games');
/** @returns {Promise<{whose: string, lines: any[]}>} */
export const myStats = () => request('GET', '/api/account/stats');
/** @param {string} rule @param {string} tc @param {boolean} provisional @returns {Promise<{players: Rating[]}>} */
export const leaderboard = (rule, tc, provisional) =>
    request('GET', `/api/leaderboard?rule=${encodeURIComponent(rule)}&tc=${encodeURIComponent(tc)}${provisional ? '&provisional=true' : ''}`);
/** @param {string} name @returns {Promise<{name: string, created: number, ratings: Rating[], games: any[]}>} */
export const player = (name) => request('GET', `/api/player?name=${encodeURIComponent(name)}`);

/** A rating as shown: "1662?" while provisional. @param {Rating} r */
export const ratingText = (r) => `${r.rating}${r.provisional ? '?' : ''}`;

/** A player page's link. @param {string} name */
export const playerLink = (name) => `players.html#name=${encodeURIComponent(name)}`;
