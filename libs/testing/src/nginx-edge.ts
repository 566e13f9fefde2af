import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const template = fileURLToPath(
  new URL('../../../deploy/base/nginx/delivery-edge.conf', import.meta.url),
);

/** A TCP port nothing listens on right now (for servers that cannot take port 0, like nginx). */
export async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    // The kernel may hand a closed port out again: two replicas given one port would leave
    // a front sending one service's requests to another (a chaos run saw exactly that).
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

/** Ports this process was given and may not have bound yet. */
const handedOut = new Set<number>();

export interface NginxEdge {
  /** e.g. http://127.0.0.1:19181 — `/dl/<token>` and uploads here reach delivery through nginx. */
  url: string;
  /** The nginx master process (its worker is its only child). */
  pid: number;
  stop(): Promise<void>;
}

/** True when an `nginx` binary is on the PATH (Debian: `apt-get install nginx-light`). */
export function nginxAvailable(): boolean {
  return spawnSync('sh', ['-c', 'command -v nginx']).status === 0;
}

/**
 * Runs deploy/base/nginx/delivery-edge.conf — the very file a deployment uses — in a scratch
 * directory of its own, in front of `deliveryUrl` (uploads admitted by `gatewayUrl`) and serving
 * `dataDir`.
 */
export async function startNginxEdge({
  port,
  deliveryUrl,
  gatewayUrl,
  dataDir,
}: {
  port: number;
  deliveryUrl: string;
  /** Where uploads are admitted; without one, the edge refuses uploads as unavailable. */
  gatewayUrl?: string;
  dataDir: string;
}): Promise<NginxEdge> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'lockdrop-nginx-'));
  const server = (await readFile(template, 'utf8'))
    .replaceAll('${LISTEN}', `127.0.0.1:${port}`)
    .replaceAll('${DELIVERY_UPSTREAM}', deliveryUrl.replace(/\/+$/, ''))
    // Port 9 (discard) refuses connections on a machine without that service.
    .replaceAll('${GATEWAY_ADDRESS}', gatewayUrl ? new URL(gatewayUrl).host : '127.0.0.1:9')
    .replaceAll('${DATA_DIR}', path.resolve(dataDir));
  await writeFile(path.join(scratch, 'delivery-edge.conf'), server);
  for (const dir of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    await mkdir(path.join(scratch, dir));
  const temp = (dir: string) => path.join(scratch, dir);
  await writeFile(
    path.join(scratch, 'nginx.conf'),
    [
      process.getuid?.() === 0 ? 'user root;' : '',
      'worker_processes 1;',
      `pid ${temp('nginx.pid')};`,
      `error_log ${temp('error.log')} warn;`,
      'events { worker_connections 1024; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      '  access_log off;',
      `  client_body_temp_path ${temp('body')};`,
      `  proxy_temp_path ${temp('proxy')};`,
      `  fastcgi_temp_path ${temp('fastcgi')};`,
      `  uwsgi_temp_path ${temp('uwsgi')};`,
      `  scgi_temp_path ${temp('scgi')};`,
      `  include ${temp('delivery-edge.conf')};`,
      '}',
    ].join('\n'),
  );
  const nginx: ChildProcess = spawn(
    'nginx',
    ['-c', path.join(scratch, 'nginx.conf'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  nginx.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => nginx.once('exit', resolve));
  await waitForPort(port, exited, () => stderr);
  return {
    url: `http://127.0.0.1:${port}`,
    pid: nginx.pid!,
    async stop() {
      if (nginx.exitCode === null) {
        nginx.kill('SIGQUIT');
        await exited;
      }
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

/** Resolves once something listens on `port`; throws if the process exits or 10 s pass. */
export async function waitForPort(
  port: number,
  exited: Promise<number | null>,
  stderr: () => string,
): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`the server exited: ${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listened on ${port}: ${stderr()}`);
}
