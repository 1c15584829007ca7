// The report's slow-client attacker, run in a process of its own so the test process's
// descriptors are the server's alone. Opens `connections` sockets round-robin from the given
// loopback addresses, sends the start of a request and trickles the rest a byte at a time;
// a socket the server closes is opened again about `reopenMs` later, as an attacker would.
// Prints {"opened","closedByServer","maxLive"} on exit (after `durationMs` or SIGTERM).
import net from 'node:net';

const o = JSON.parse(process.argv[2]);
const head =
  o.kind === 'headers'
    ? 'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\n'
    : 'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Content-Length: 1000\r\n\r\n{"email":"';
let opened = 0;
let closedByServer = 0;
let live = 0;
let maxLive = 0;
let stopping = false;
const sockets = new Set();

function open(i) {
  if (stopping) return;
  opened++;
  const socket = net.connect({
    port: o.port,
    host: '127.0.0.1',
    localAddress: o.addresses[i % o.addresses.length],
  });
  sockets.add(socket);
  let trickle = null;
  socket.on('connect', () => {
    live++;
    maxLive = Math.max(maxLive, live);
    socket.write(head);
    trickle = setInterval(() => socket.write(o.kind === 'headers' ? 'X' : 'a'), o.trickleMs);
  });
  socket.on('data', () => {});
  socket.on('error', () => {});
  socket.on('close', () => {
    if (trickle) {
      clearInterval(trickle);
      live--;
    }
    sockets.delete(socket);
    if (stopping) return;
    closedByServer++;
    // Spread over 0.5 to 1.5 × reopenMs, as independent clients would be, not in lockstep.
    setTimeout(() => open(i), o.reopenMs * (0.5 + Math.random()));
  });
}

const stop = () => {
  stopping = true;
  for (const s of sockets) s.destroy();
  process.stdout.write(JSON.stringify({ opened, closedByServer, maxLive }) + '\n');
  setTimeout(() => process.exit(0), 50);
};
process.on('SIGTERM', stop);
setTimeout(stop, o.durationMs);
// The first sockets too are spread over reopenMs.
for (let i = 0; i < o.connections; i++) setTimeout(() => open(i), Math.random() * o.reopenMs);
