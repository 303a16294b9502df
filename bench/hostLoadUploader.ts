/**
 * The uploader of bench/hostLoad.bench.ts, run as its own process so the bench process only times the
 * small calls:  node --import tsx bench/hostLoadUploader.ts PORT TOKEN TARGET COUNT BYTES
 * Sends COUNT parallel saveFileAs calls, each carrying a motion of BYTES bytes to TARGET (overwrite),
 * prints "started" once they are sent off and then one JSON line with their HTTP statuses and the
 * CPU seconds this process used after "started".
 * One body is built and sent COUNT times: the uploader's own memory is not what is measured.
 */
import { request } from 'node:http';
import { encodeWire } from '../shared/contract/wire';

const [port, token, target, count, size] = process.argv.slice(2);
const motion = new Uint8Array(Number(size));
for (let i = 0; i < motion.length; i += 4096) motion[i] = i & 255;
const body = encodeWire([{ bytes: motion, suggestedName: 'load.vrma', path: target, overwrite: true }]);

const one = () =>
  new Promise<number>((ok) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        path: '/api/call/saveFileAs',
        method: 'POST',
        agent: false,
        headers: { 'X-VRMA-Token': token, 'Content-Length': String(body.length) },
      },
      (res) => {
        res.resume();
        res.on('end', () => ok(res.statusCode ?? 0));
      },
    );
    req.on('error', () => ok(0));
    req.end(body);
  });

const all = Promise.all(Array.from({ length: Number(count) }, one));
process.stdout.write('started\n');
const cpu0 = process.cpuUsage();
void all.then((statuses) => {
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ statuses, cpuSeconds: (cpu.user + cpu.system) / 1e6 }) + '\n');
});
