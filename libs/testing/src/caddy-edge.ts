import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitForPort } from './nginx-edge.js';

const caddyfile = fileURLToPath(new URL('../../../deploy/edge/Caddyfile', import.meta.url));

export interface CaddyEdge {
  httpsPort: number;
  /** The PEM of the root of Caddy's local CA, which signs the certificates it issues here. */
  rootCertificate(): Promise<string>;
  stop(): Promise<void>;
}

/** True when a `caddy` binary is on the PATH (Debian: `apt-get install caddy`). */
export function caddyAvailable(): boolean {
  return spawnSync('sh', ['-c', 'command -v caddy']).status === 0;
}

/**
 * Runs deploy/edge/Caddyfile — the file compose and Kubernetes run — with Caddy's internal CA
 * (`EDGE_TLS=internal`) on free ports, in front of `gatewayUrl`, its certificates and CA kept
 * in a scratch directory (never the machine's trust store).
 */
export async function startCaddyEdge({ gatewayUrl }: { gatewayUrl: string }): Promise<CaddyEdge> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'lockdrop-caddy-'));
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const caddy: ChildProcess = spawn(
    'caddy',
    ['run', '--config', caddyfile, '--adapter', 'caddyfile'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: scratch,
        XDG_DATA_HOME: path.join(scratch, 'data'),
        XDG_CONFIG_HOME: path.join(scratch, 'config'),
        LOCKDROP_GATEWAY: gatewayUrl.replace(/\/+$/, ''),
        EDGE_TLS: 'internal',
        EDGE_HTTP_PORT: String(httpPort),
        EDGE_HTTPS_PORT: String(httpsPort),
      },
    },
  );
  let stderr = '';
  caddy.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8_000)));
  const exited = new Promise<number | null>((resolve) => caddy.once('exit', resolve));
  await waitForPort(httpsPort, exited, () => stderr);
  return {
    httpsPort,
    rootCertificate: () =>
      readFile(
        path.join(scratch, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt'),
        'utf8',
      ),
    async stop() {
      if (caddy.exitCode === null) {
        caddy.kill('SIGTERM');
        await exited;
      }
      await rm(scratch, { recursive: true, force: true });
    },
  };
}
