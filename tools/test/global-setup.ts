import { canConnect } from '../reachable.mjs';
import type { TestProject } from 'vitest/node';

interface Dependency {
  name: string;
  envVar: 'DATABASE_URL' | 'REDIS_URL' | 'NATS_URL';
  url: string;
  image: string;
  port: number;
}

const dependencies: Dependency[] = [
  {
    name: 'PostgreSQL',
    envVar: 'DATABASE_URL',
    url: 'postgres://postgres@127.0.0.1:5432/postgres',
    image: 'postgres:16-alpine',
    port: 5432,
  },
  {
    name: 'Redis',
    envVar: 'REDIS_URL',
    url: 'redis://127.0.0.1:6379',
    image: 'redis:7-alpine',
    port: 6379,
  },
  {
    name: 'NATS',
    envVar: 'NATS_URL',
    url: 'nats://127.0.0.1:4222',
    image: 'nats:2.10-alpine',
    port: 4222,
  },
];

/**
 * Tests use the real services named by env (or the machine's standard local ports). Only when
 * the env names none and nothing answers locally do we try testcontainers, which needs Docker.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<unknown>> = [];
  for (const dependency of dependencies) {
    const configured = process.env[dependency.envVar];
    const url = configured ?? dependency.url;
    if (await canConnect(url)) {
      process.env[dependency.envVar] = url;
      continue;
    }
    if (configured)
      throw new Error(
        `${dependency.name} is not reachable at ${configured} (${dependency.envVar})`,
      );
    const started = await startContainer(dependency);
    process.env[dependency.envVar] = started.url;
    stops.push(started.stop);
  }
  for (const dependency of dependencies)
    project.provide(dependency.envVar, process.env[dependency.envVar]!);
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

async function startContainer(
  dependency: Dependency,
): Promise<{ url: string; stop: () => Promise<unknown> }> {
  const { GenericContainer } = await import('testcontainers');
  let container;
  try {
    const image = new GenericContainer(dependency.image).withExposedPorts(dependency.port);
    container = await (
      dependency.name === 'PostgreSQL'
        ? image.withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        : dependency.name === 'NATS'
          ? image.withCommand(['-js'])
          : image
    ).start();
  } catch (error) {
    throw new Error(
      `${dependency.name} is not reachable at ${dependency.url} and no container runtime is available ` +
        `(${(error as Error).message}). Start ${dependency.name} or set ${dependency.envVar}.`,
    );
  }
  const url = new URL(dependency.url);
  url.hostname = container.getHost();
  url.port = String(container.getMappedPort(dependency.port));
  return { url: url.toString(), stop: () => container.stop() };
}

declare module 'vitest' {
  export interface ProvidedContext {
    DATABASE_URL: string;
    REDIS_URL: string;
    NATS_URL: string;
  }
}
