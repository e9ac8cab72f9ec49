// load.mjs: load driver for the online rooms of gomoku serve, on one server or several (figures
// in docs/web.md and docs/deploy.md; not a test). It starts SERVERS (default 1) `gomoku serve` on
// loopback on DB (a PostgreSQL connection string; default a fresh SQLite file, one server), each
// player and its stream on its own server (black on the first, white on the last, the spectator
// on the room's other one), so that with two servers every delay measured crosses servers;
// VIA=nginx sends every request and stream through an nginx started in front of them instead
// (round robin). It creates ROOMS rooms,
// has a friend join each, opens three event streams per room (both players and a spectator),
// then plays moves across all rooms at a steady RATE a second (round-robin, so one room never
// has two moves in flight) and measures, for each move, the delay from sending its POST to the
// `moved` event's arrival on the other player's stream and on the spectator's. It prints the
// p50/p99 of those delays, the errors, and the server's memory per live room (VmRSS after the
// rooms and streams are open, less VmRSS before, divided by ROOMS).
//
// Usage: [DB=...] [SERVERS=2] [VIA=nginx] node bench/rooms/load.mjs [ROOMS] [RATE] [MOVES_PER_ROOM]
// (defaults 1000 300 12)
// GMK_BIN names the binary (default build/gomoku). Needs `ulimit -n` above 4 x ROOMS.
// The moves follow a pattern that never makes five: black takes the points where
// (floor(x / 2) + y) is even, white the others (runs of at most two in every direction).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOMS = Number(process.argv[2] || 1000);
const RATE = Number(process.argv[3] || 300);
const MOVES = Math.min(Number(process.argv[4] || 12), 100);
const BIN = process.env.GMK_BIN || 'build/gomoku';
const dir = mkdtempSync(join(process.env.DB_DIR || tmpdir(), 'gmk-roomsbench-'));

const letters = 'abcdefghijklmno';
const black = [];
const white = [];
for (let y = 0; y < 15; y++) {
  for (let x = 0; x < 15; x++) ((Math.floor(x / 2) + y) % 2 === 0 ? black : white).push(`${letters[x]}${y + 1}`);
}
const pointOf = (ply) => (ply % 2 === 0 ? black : white)[Math.floor(ply / 2)];

const SERVERS = Number(process.env.SERVERS || 1);
const DB = process.env.DB || join(dir, 'b.db');
function startOne() {
  const proc = spawn(BIN, ['serve', '--listen', '127.0.0.1:0', '--db', DB, '--quiet',
    '--join-limit', '100000', '--engines', '1', '--rooms-max', '100000', '--conn-limit', '8000'],
  { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /127\.0\.0\.1:(\d+)\//.exec(out);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.on('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
}
const procs = [];
for (let i = 0; i < SERVERS; i++) procs.push(await startOne());
let ports = procs.map((p) => p.port);
let nginx = null;
if (process.env.VIA === 'nginx') {
  const nport = 20000 + (process.pid % 20000);
  writeFileSync(join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
worker_processes 1;
worker_rlimit_nofile 30000;
events { worker_connections 20000; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/f;
  uwsgi_temp_path ${dir}/u; scgi_temp_path ${dir}/s;
  upstream gomoku { ${ports.map((p) => `server 127.0.0.1:${p};`).join(' ')} keepalive 64; }
  server {
    listen 127.0.0.1:${nport};
    location / { proxy_pass http://gomoku; proxy_http_version 1.1; proxy_set_header Connection ""; }
    location ~ ^/api/rooms/[^/]+/events$ {
      proxy_pass http://gomoku; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_buffering off; proxy_read_timeout 1h;
    }
  }
}
`);
  nginx = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'inherit' });
  await new Promise((res) => setTimeout(res, 500));
  ports = [nport];
}
const portOf = (i) => ports[i % ports.length];
const rss = () => procs.reduce((sum, p) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.proc.pid}/status`, 'utf8'))[1]), 0);

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
/** One JSON request; resolves {status, json, cookie}. */
function request(method, path, body, cookie, server = 0) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = {};
    if (data) { headers['content-type'] = 'application/json'; headers['content-length'] = Buffer.byteLength(data); }
    if (cookie) headers.cookie = cookie;
    const req = http.request({ host: '127.0.0.1', port: portOf(server), method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        const set = res.headers['set-cookie'];
        resolve({ status: res.statusCode, json: text ? JSON.parse(text) : null, cookie: set ? set[0].split(';')[0] : '' });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

const sent = new Map(); // `${code}/${ply}` -> time the POST left
const delays = { player: [], spectator: [] };
let streamsOpen = 0;
/** Opens a room's event stream; records each `moved` event's delay. */
function stream(code, cookie, kind, server) {
  return new Promise((resolve, reject) => {
    const headers = cookie ? { cookie } : {};
    const req = http.get({ host: '127.0.0.1', port: portOf(server), path: `/api/rooms/${code}/events`, headers, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${res.statusCode}`));
      streamsOpen++;
      resolve(req);
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        const now = performance.now();
        buf += c;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const m = /\ndata: (\{"seq":\d+,"kind":"moved".*)$/m.exec(`\n${block}`);
          if (!m) continue;
          const ev = JSON.parse(m[1]);
          const t0 = sent.get(`${code}/${ev.ply - 1}`);
          if (t0 === undefined) continue;
          const mover = ev.color;
          // the spectator's delay always; a player's only on the other player's stream
          if (kind === 'spectator') delays.spectator.push(now - t0);
          else if (kind !== mover) delays.player.push(now - t0);
        }
      });
    });
    req.on('error', reject);
  });
}

const base = rss();
console.log(`servers: ${SERVERS}${nginx ? ' behind nginx' : ''}, database: ${DB.includes('=') || DB.includes('://') ? 'PostgreSQL' : 'SQLite'}`);
const rooms = [];
for (let i = 0; i < ROOMS; i++) {
  const c = await request('POST', '/api/rooms', { name: `A${i}`, black: 'me' }, undefined, 0);
  if (c.status !== 201) throw new Error(`create: ${c.status}`);
  const j = await request('POST', `/api/rooms/${c.json.code}/join`, { name: `B${i}` }, undefined, 1);
  if (j.status !== 200 || j.json.you !== 1) throw new Error(`join: ${j.status}`);
  rooms.push({ code: c.json.code, cookies: [c.cookie, j.cookie], ply: 0 });
}
const streams = [];
for (let i = 0; i < rooms.length; i++) {
  const r = rooms[i];
  streams.push(await stream(r.code, r.cookies[0], 'black', 0));
  streams.push(await stream(r.code, r.cookies[1], 'white', 1));
  streams.push(await stream(r.code, '', 'spectator', i % 2 === 0 ? 1 : 0));
}
await new Promise((res) => setTimeout(res, 2000));
const loaded = rss();
console.log(`rooms: ${ROOMS}, open streams: ${streamsOpen}, server VmRSS ${base} kB -> ${loaded} kB: ` +
  `${((loaded - base) / ROOMS).toFixed(1)} kB per live room (3 streams each)`);

let errors = 0;
let done = 0;
const total = ROOMS * MOVES;
const start = performance.now();
const inflight = [];
for (let k = 0; k < total; k++) {
  const due = start + (k * 1000) / RATE;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((res) => setTimeout(res, wait));
  const r = rooms[k % ROOMS];
  const ply = r.ply++;
  sent.set(`${r.code}/${ply}`, performance.now());
  inflight.push(request('POST', `/api/rooms/${r.code}/move`, { point: pointOf(ply), ply }, r.cookies[ply % 2], ply % 2)
    .then((res) => { done++; if (res.status !== 200) errors++; }, () => { errors++; }));
}
await Promise.all(inflight);
const secs = (performance.now() - start) / 1000;
await new Promise((res) => setTimeout(res, 1000));
const pct = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(2) : 'n/a';
};
console.log(`moves: ${done} in ${secs.toFixed(1)} s (${(done / secs).toFixed(0)}/s), errors ${errors}`);
for (const k of ['player', 'spectator']) {
  console.log(`POST -> arrival on the ${k === 'player' ? 'other player\'s' : 'spectator\'s'} stream: ` +
    `n=${delays[k].length} p50 ${pct(delays[k], 50)} ms, p99 ${pct(delays[k], 99)} ms, max ${pct(delays[k], 100)} ms`);
}
console.log(`server VmRSS at the end: ${rss()} kB`);
for (const s of streams) s.destroy();
for (const p of procs) {
  p.proc.kill('SIGTERM');
  await new Promise((res) => p.proc.on('exit', res));
}
if (nginx) nginx.kill('SIGTERM');
agent.destroy();
rmSync(dir, { recursive: true, force: true });
