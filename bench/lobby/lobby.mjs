// lobby.mjs: the lobby under load (issue 30; figures in docs/lobby.md; not a test). Starts
// `gomoku serve` on a new SQLite file, connects PLAYERS lobby streams (each from its own
// browser, spread over 127.0.x.y source addresses), then posts SEEKS open seeks at a steady
// RATE a second, each from its own address (the limit is 3 open seeks per client), and
// measures, for every seek and every stream, the delay from sending its POST to its `seek`
// event's arrival: p50/p99 over all PLAYERS x SEEKS arrivals, and over the first stream to
// see each seek; and the server's CPU time per seek posted and fanned out (user + system, from
// /proc: a figure that does not depend on the machine's load as the delays do). Memory per connected player: the server's VmRSS with the streams open, less
// before, divided by PLAYERS; then LATE more players connect to the full lobby (their first
// event lists every seek) and their VmRSS growth per player is given too.
//
// Usage: nice -n 10 node bench/lobby/lobby.mjs [PLAYERS] [SEEKS] [RATE] [LATE]
// (defaults 3000 1000 50 200). GMK_BIN names the binary (default build/gomoku). Needs
// `ulimit -n` above 2 x (PLAYERS + LATE) + 100.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PLAYERS = Number(process.argv[2] || 3000);
const SEEKS = Number(process.argv[3] || 1000);
const RATE = Number(process.argv[4] || 50);
const LATE = Number(process.argv[5] || 200);
const BIN = process.env.GMK_BIN || 'build/gomoku';
const dir = mkdtempSync(join(tmpdir(), 'gmk-lobbybench-'));

const proc = spawn(BIN, ['serve', '--listen', '127.0.0.1:0', '--db', join(dir, 'b.db'), '--quiet',
  '--engines', '1', '--conn-limit', '8000', '--write-limit', '100000'], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
    const m = /127\.0\.0\.1:(\d+)\//.exec(out);
    if (m) resolve(Number(m[1]));
  });
  proc.on('exit', (c) => reject(new Error(`server exited ${c}`)));
});
/** The server's CPU time so far (user + system), in ms (clock ticks of 10 ms). */
const cpuMs = () => {
  const f = readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))[1]);
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
/** The n-th source address: 127.<1 + n / 250>.<n % 250 + 1>.<1..>. */
const addr = (n, base = 1) => `127.${base + Math.floor(n / 250)}.${(n % 250) + 1}.1`;

const sent = new Map(); // seek id -> time its POST left (by the poster's index until known)
const posted = []; // POST start times by poster index
const delays = [];
const firsts = new Map(); // seek id -> first arrival
let lateStarts = 0;
/** Opens a lobby stream from address a; resolves once its first event has arrived. */
function player(a, late) {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/lobby/events', localAddress: a, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
      let buf = '';
      let started = false;
      res.setEncoding('utf8');
      res.on('data', (c) => {
        const now = performance.now();
        buf += c;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (!started && block.includes('event: lobby')) {
            started = true;
            if (late) lateStarts++;
            resolve(req);
            continue;
          }
          if (late) continue;
          const m = /^event: seek\ndata: \{"id":(\d+),"name":"p(\d+)"/.exec(block);
          if (!m) continue;
          const t0 = posted[Number(m[2])];
          if (t0 === undefined) continue;
          delays.push(now - t0);
          const id = Number(m[1]);
          if (!firsts.has(id)) firsts.set(id, now - t0);
        }
      });
    });
    req.on('error', reject);
  });
}

/** Posts seek n from its own address. */
function post(n) {
  const body = JSON.stringify({ name: `p${n}`, clock: ['5+3', '10+5', '30+0'][n % 3], color: 'random' });
  return new Promise((resolve, reject) => {
    posted[n] = performance.now();
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/lobby/seeks', localAddress: addr(n, 100), agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c) => { text += c; });
      res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(text).id) : reject(new Error(`post ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

await sleep(500);
const before = rssKb();
const streams = [];
for (let i = 0; i < PLAYERS; i += 100) {
  const batch = [];
  for (let k = i; k < Math.min(PLAYERS, i + 100); k++) batch.push(player(addr(k)));
  streams.push(...(await Promise.all(batch)));
}
await sleep(1500);
const withPlayers = rssKb();
console.log(`${PLAYERS} players connected: VmRSS ${before} -> ${withPlayers} kB, ${((withPlayers - before) / PLAYERS).toFixed(1)} kB a player`);

const cpu0 = cpuMs();
const t0 = performance.now();
const posts = [];
let errors = 0;
for (let n = 0; n < SEEKS; n++) {
  const due = t0 + (n * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await sleep(wait);
  posts.push(post(n).catch((e) => { errors++; if (errors < 4) console.error(String(e)); }));
}
await Promise.all(posts);
const expect = SEEKS * PLAYERS;
for (let i = 0; i < 100 && delays.length < expect - errors * PLAYERS; i++) await sleep(100);
const withSeeks = rssKb();
const cpuPerSeek = (cpuMs() - cpu0) / SEEKS;
console.log(`server CPU ${cpuPerSeek.toFixed(1)} ms a seek posted and sent to ${PLAYERS} streams (${((cpuPerSeek * 1000) / PLAYERS).toFixed(1)} us a delivery); load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
console.log(`${SEEKS} seeks posted at ${RATE}/s (${errors} errors): ${delays.length} of ${expect} arrivals;` +
  ` post -> other lobbies p50 ${pct(delays, 50).toFixed(1)} ms, p99 ${pct(delays, 99).toFixed(1)} ms, max ${delays.reduce((a, b) => Math.max(a, b), 0).toFixed(1)} ms;` +
  ` first arrival p50 ${pct([...firsts.values()], 50).toFixed(1)} ms, p99 ${pct([...firsts.values()], 99).toFixed(1)} ms`);
console.log(`VmRSS with ${SEEKS} seeks and ${PLAYERS} players: ${withSeeks} kB`);

const late = [];
for (let i = 0; i < LATE; i += 50) {
  const batch = [];
  for (let k = i; k < Math.min(LATE, i + 50); k++) batch.push(player(addr(k, 60), true));
  late.push(...(await Promise.all(batch)));
}
await sleep(1500);
const withLate = rssKb();
console.log(`${LATE} more players joining the full lobby (${lateStarts} first events of ${SEEKS} seeks): VmRSS ${withSeeks} -> ${withLate} kB, ${((withLate - withSeeks) / LATE).toFixed(1)} kB a player`);
console.log(JSON.stringify({ players: PLAYERS, seeks: SEEKS, rate: RATE, errors, arrivals: delays.length, p50_ms: pct(delays, 50), p99_ms: pct(delays, 99),
  first_p99_ms: pct([...firsts.values()], 99), cpu_ms_per_seek: cpuPerSeek, kb_per_player: (withPlayers - before) / PLAYERS, kb_per_late_player: (withLate - withSeeks) / LATE }));
for (const r of [...streams, ...late]) r.destroy();
proc.kill('SIGTERM');
await new Promise((res) => proc.on('exit', res));
rmSync(dir, { recursive: true, force: true });
