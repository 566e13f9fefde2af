import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configSchema as analyticsConfig } from '@lockdrop/analytics/src/config.js';
import { configSchema as catalogConfig } from '@lockdrop/catalog/src/config.js';
import { ConfigError, loadConfig } from '@lockdrop/config';
import { configSchema as deliveryConfig } from '@lockdrop/delivery/src/config.js';
import { configSchema as gatewayConfig } from '@lockdrop/gateway/src/config.js';
import { configSchema as identityConfig } from '@lockdrop/identity/src/config.js';
import { configSchema as paymentsConfig } from '@lockdrop/payments/src/config.js';
import { configSchema as workerConfig } from '@lockdrop/worker/src/config.js';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_ARGS } from '../../tools/stack.mjs';
import { parse, parseAllDocuments } from 'yaml';
import type { z } from 'zod';

// What a cluster operator (and `docker compose up`) relies on, checked against the services'
// own zod config schemas, so a new env var with a localhost default, a renamed port or a probe
// on the wrong path fails here rather than in a rollout.

const deployDir = fileURLToPath(new URL('../base', import.meta.url));
const repoRoot = path.resolve(deployDir, '../..');

const PORTS = {
  gateway: 8080,
  identity: 3001,
  catalog: 3002,
  payments: 3003,
  delivery: 3004,
  analytics: 3005,
  worker: 3006,
} as const;
type Name = keyof typeof PORTS;
const NAMES = Object.keys(PORTS) as Name[];
const DOMAIN_SERVICES = NAMES.filter((name) => name !== 'gateway');

const schemas: Record<Name, z.ZodObject> = {
  gateway: gatewayConfig,
  identity: identityConfig,
  catalog: catalogConfig,
  payments: paymentsConfig,
  delivery: deliveryConfig,
  analytics: analyticsConfig,
  worker: workerConfig,
};

const DOMAIN_ENV = [
  'PORT',
  'HOST',
  'DATABASE_URL',
  'NATS_URL',
  'BUS_NAMESPACE',
  'JWKS_URL',
  'LOG_LEVEL',
];
const UPSTREAMS = {
  IDENTITY_URL: 'identity',
  CATALOG_URL: 'catalog',
  PAYMENTS_URL: 'payments',
  DELIVERY_URL: 'delivery',
  ANALYTICS_URL: 'analytics',
  WORKER_URL: 'worker',
} as const satisfies Record<string, Name>;
/** Env each process must be given explicitly in a container (its defaults fit a laptop only). */
const REQUIRED_ENV: Record<Name, string[]> = {
  gateway: [
    'PORT',
    'HOST',
    'REDIS_URL',
    'NATS_URL',
    'BUS_NAMESPACE',
    ...Object.keys(UPSTREAMS),
    'TRUST_PROXY',
    'LOG_LEVEL',
  ],
  identity: DOMAIN_ENV,
  catalog: DOMAIN_ENV,
  payments: DOMAIN_ENV,
  delivery: DOMAIN_ENV,
  analytics: DOMAIN_ENV,
  worker: [...DOMAIN_ENV, 'REDIS_URL'],
};
const HPA_TARGETS = ['gateway', 'catalog', 'payments', 'delivery'];
/** Every workload that runs more than one replica (HPA minimum or replicas ≥ 2). */
const PDB_TARGETS = ['gateway', 'identity', 'catalog', 'payments', 'delivery', 'delivery-edge'];
/** nginx in front of delivery for /dl (deploy/base/delivery-edge.yaml): not one of our processes. */
const EDGE = 'delivery-edge';
/** What the edge serves: downloads, and the routes whose upload bodies skip the gateway (issue 31). */
const EDGE_PATHS = ['/dl/', '/api/uploads', '/api/brand-logos', '/api/avatars'];
/** Realistic stand-ins for the Secret template's placeholders. A new secret key needs one here. */
const SECRET_TEST_VALUES: Record<string, string> = {
  DATABASE_URL: 'postgres://lockdrop:s3cret@db.internal:5432/lockdrop',
  REDIS_URL: 'redis://:s3cret@redis.internal:6379',
  NATS_URL: 'nats://lockdrop:s3cret@nats.internal:4222',
  VISITOR_ID_SECRET: 'a-long-random-visitor-id-secret',
  DOWNLOAD_SIGNING_KEY: 'a-long-random-download-signing-key-for-tests',
  PAYOUT_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
  WEBHOOK_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 2).toString('base64')}`,
  PAYOUT_INSTRUCTION_KEYS: `i1:${Buffer.alloc(32, 3).toString('base64')}`,
  // One NATS user per service, and the operator's (nats-passwords).
  ...Object.fromEntries(
    [
      'identity',
      'catalog',
      'payments',
      'delivery',
      'analytics',
      'worker',
      'gateway',
      'operator',
    ].map((user) => [`NATS_PASSWORD_${user.toUpperCase()}`, `nats-password-of-${user}`]),
  ),
  FLW_SECRET_KEY: 'FLWSECK-0123456789abcdef0123456789abcdef-X',
  // Webhook secrets differ per run: production refuses every example printed in the repository.
  FLW_WEBHOOK_HASH: randomBytes(18).toString('base64url'),
  SANDBOX_WEBHOOK_SECRET: randomBytes(18).toString('base64url'),
  // A throw-away key generated for this test (`npm run jwt-key`); it signs nothing anywhere.
  JWT_PRIVATE_KEYS:
    '{"keys":[{"kty":"OKP","crv":"Ed25519","d":"buFm9Zrvq2DMmP--gxISh5Wl4ZDaVgK4EPiNBQBB0gs","x":"exKTe8C8lcdUSpj91o5QUJNXfjUKznYzfhfaSbv_FEQ","kid":"b1ac92f8-e9f5-4e22-8b74-01d678a73028"}]}',
};
const LOOPBACK = /\b(127\.\d+\.\d+\.\d+|localhost|\[::1\])\b/;
/** URLs a browser opens rather than the container: localhost is right for compose on a laptop. */
const BROWSER_FACING = new Set(['PUBLIC_URL', 'S3_PUBLIC_ENDPOINT']);
/**
 * Env settled per environment rather than mirrored between compose and Kubernetes (besides
 * everything in a Secret): the public origin, whether a proxy sits in front of the gateway, and
 * real payments versus the sandbox (and the demo flag and secret that go with it).
 */
const PER_ENVIRONMENT = new Set([
  'PUBLIC_URL',
  // Custom domains' edge: its name and load-balancer addresses differ per deployment.
  'EDGE_HOST',
  'EDGE_ADDRESSES',
  'TRUST_PROXY',
  'PAYMENT_PROVIDER',
  'ALLOW_TEST_PAYMENTS',
  'SANDBOX_WEBHOOK_SECRET',
  // Where delivery keeps files, and how downloads leave: the base keeps them on a volume behind
  // nginx (x-accel); compose and the prod overlay keep them in S3 (presigned redirects).
  'DOWNLOAD_OFFLOAD',
  'STORAGE_BACKEND',
  'DATA_DIR',
  'S3_ENDPOINT',
  'S3_PUBLIC_ENDPOINT',
  'S3_FORCE_PATH_STYLE',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  // SMTP: an optional key of each sender's Secret in Kubernetes (commented in the template), the
  // operator's shell in compose; unset in both, e-mail lands in the development mailbox.
  'SMTP_URL',
  // Compose runs offline on the seed rates and turns the rate-age bound off; Kubernetes keeps
  // production's default (the prod overlay refreshes rates from Flutterwave).
  'FX_MAX_RATE_AGE_HOURS',
]);

// --- Kubernetes object shapes (only the fields checked here) -------------------------------
interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
  file: string;
}
interface Probe {
  httpGet?: { path: string; port: string | number };
  periodSeconds?: number;
  failureThreshold?: number;
  timeoutSeconds?: number;
}
interface EnvVar {
  name: string;
  value?: unknown;
  valueFrom?: {
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    secretKeyRef?: { name: string; key: string; optional?: boolean };
  };
}
interface EnvFromSource {
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}
interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  securityContext?: {
    runAsNonRoot?: boolean;
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  terminationGracePeriodSeconds?: number;
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    seccompProfile?: { type: string };
  };
  volumes?: {
    name: string;
    emptyDir?: object;
    persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  }[];
}
interface Deployment extends K8sObject {
  spec: {
    replicas?: number;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}
interface Service extends K8sObject {
  spec: {
    selector: Record<string, string>;
    ports: { name?: string; port: number; targetPort?: string | number }[];
  };
}
interface Hpa extends K8sObject {
  spec: {
    scaleTargetRef: { apiVersion: string; kind: string; name: string };
    minReplicas: number;
    maxReplicas: number;
    metrics: {
      type: string;
      resource?: { name: string; target: { type: string; averageUtilization?: number } };
    }[];
  };
}
interface Pdb extends K8sObject {
  spec: {
    selector: { matchLabels: Record<string, string> };
    minAvailable?: number | string;
    maxUnavailable?: number | string;
  };
}
interface Ingress extends K8sObject {
  spec: {
    rules: {
      host?: string;
      http: {
        paths: {
          path: string;
          backend: { service: { name: string; port: { name?: string; number?: number } } };
        }[];
      };
    }[];
  };
}
interface ConfigMap extends K8sObject {
  data?: Record<string, unknown>;
}
interface Secret extends K8sObject {
  data?: Record<string, string>;
  stringData?: Record<string, unknown>;
}

function readYamlDocuments(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]!.message}`);
    const value: unknown = document.toJS();
    return value == null ? [] : [value];
  });
}

const manifestFiles = readdirSync(deployDir).filter(
  (file) => /\.ya?ml$/.test(file) && file !== 'kustomization.yaml',
);
const objects: K8sObject[] = manifestFiles.flatMap((file) =>
  readYamlDocuments(path.join(deployDir, file)).map((object) => ({
    ...(object as Omit<K8sObject, 'file'>),
    file,
  })),
);
const kustomization = parse(readFileSync(path.join(deployDir, 'kustomization.yaml'), 'utf8')) as {
  namespace?: string;
  resources: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
  configMapGenerator?: { name: string; files: string[] }[];
};

const ofKind = <T extends K8sObject>(kind: string) =>
  objects.filter((object) => object.kind === kind) as T[];
const named = <T extends K8sObject>(kind: string, name: string) =>
  ofKind<T>(kind).find((o) => o.metadata.name === name);
const deploymentOf = (name: string) => named<Deployment>('Deployment', name);
const containerOf = (name: string) => deploymentOf(name)!.spec.template.spec.containers[0]!;
const serviceOf = (name: string) => named<Service>('Service', name);
const secretTemplates = ofKind<Secret>('Secret').filter(
  (secret) => secret.file === 'secrets.example.yaml',
);

/** A Secret's values as committed in the template: placeholders. */
function templateData(secret: Secret): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [key, value] of Object.entries(secret.data ?? {})) {
    data[key] = Buffer.from(value, 'base64').toString();
  }
  for (const [key, value] of Object.entries(secret.stringData ?? {})) data[key] = String(value);
  return data;
}

/** Which secret keys keep their placeholder; the rest get a realistic SECRET_TEST_VALUES value. */
type Placeholders = (key: string) => boolean;
const filledIn: Placeholders = () => false;

function secretData(secret: Secret, placeholders: Placeholders): Record<string, string> {
  return Object.fromEntries(
    Object.entries(templateData(secret)).map(([key, placeholder]) => {
      if (placeholders(key)) return [key, placeholder];
      const value = SECRET_TEST_VALUES[key];
      if (value === undefined) {
        throw new Error(`secret key ${key}: add a realistic value to SECRET_TEST_VALUES`);
      }
      return [key, value];
    }),
  );
}

const secretKeys = new Set(secretTemplates.flatMap((secret) => Object.keys(templateData(secret))));

/** The env a container starts with, as the kubelet assembles it (envFrom first, then env). */
function resolveEnv(
  container: Container,
  placeholders: Placeholders = filledIn,
): Record<string, string> {
  const env: Record<string, string> = {};
  const configMap = (name: string) => named<ConfigMap>('ConfigMap', name);
  const secret = (name: string) => secretTemplates.find((s) => s.metadata.name === name);
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      const found = configMap(source.configMapRef.name);
      if (!found && !source.configMapRef.optional)
        throw new Error(`missing ConfigMap ${source.configMapRef.name}`);
      for (const [key, value] of Object.entries(found?.data ?? {})) env[key] = String(value);
    }
    if (source.secretRef) {
      const found = secret(source.secretRef.name);
      if (!found && !source.secretRef.optional)
        throw new Error(`missing Secret ${source.secretRef.name}`);
      if (found) Object.assign(env, secretData(found, placeholders));
    }
  }
  for (const variable of container.env ?? []) {
    const { configMapKeyRef, secretKeyRef } = variable.valueFrom ?? {};
    if (configMapKeyRef)
      env[variable.name] = String(configMap(configMapKeyRef.name)?.data?.[configMapKeyRef.key]);
    else if (secretKeyRef)
      env[variable.name] = secretData(secret(secretKeyRef.name)!, placeholders)[secretKeyRef.key]!;
    else env[variable.name] = String(variable.value);
  }
  return env;
}

/** Parses env with the service's real config schema; fails on a value left at a loopback default. */
function expectUsableConfig(name: Name, env: Record<string, string>) {
  const config = loadConfig(schemas[name], env) as Record<string, unknown>;
  for (const [key, value] of Object.entries(config)) {
    if (BROWSER_FACING.has(key)) continue;
    expect(
      LOOPBACK.test(String(value)),
      `${name}: ${key}=${String(value)} points at the container itself`,
    ).toBe(false);
  }
  return config;
}

function urlOf(value: string | undefined) {
  expect(value, 'URL is set').toBeTruthy();
  const url = new URL(value!);
  return {
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    path: url.pathname,
  };
}

function containerPortFor(
  container: Container,
  targetPort: string | number | undefined,
  servicePort: number,
) {
  const target = targetPort ?? servicePort;
  return typeof target === 'number'
    ? target
    : container.ports?.find((port) => port.name === target)?.containerPort;
}

describe('Kubernetes manifests', () => {
  it('parse, and every object lives in namespace lockdrop (Pod Security "restricted")', () => {
    expect(objects.length).toBeGreaterThan(20);
    for (const object of objects) {
      expect(object.apiVersion, `${object.file}: ${object.kind}`).toBeTruthy();
      expect(object.metadata?.name, `${object.file}: ${object.kind}`).toBeTruthy();
      if (object.kind !== 'Namespace')
        expect(object.metadata.namespace, `${object.kind}/${object.metadata.name}`).toBe(
          'lockdrop',
        );
    }
    const namespace = named<K8sObject>('Namespace', 'lockdrop');
    expect(namespace?.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('kustomization applies every manifest but never the Secret template', () => {
    expect(kustomization.namespace).toBe('lockdrop');
    expect([...kustomization.resources].sort()).toEqual(
      manifestFiles.filter((f) => f !== 'secrets.example.yaml').sort(),
    );
    expect(kustomization.resources).not.toContain('secrets.example.yaml');
    expect(kustomization.images?.map((image) => image.name)).toEqual(['lockdrop']);
  });

  it('has exactly one Deployment and one Service per process, all running the one image', () => {
    expect(
      ofKind('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual([...NAMES, EDGE].sort());
    expect(
      ofKind('Service')
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual([...NAMES, EDGE].sort());
    for (const name of NAMES) {
      const deployment = deploymentOf(name)!;
      expect(deployment.spec.template.spec.containers, name).toHaveLength(1);
      expect(containerOf(name).image, name).toBe('lockdrop');
      expect(resolveEnv(containerOf(name)).SERVICE, name).toBe(name);
      const { matchLabels } = deployment.spec.selector;
      expect(deployment.spec.template.metadata.labels, name).toMatchObject(matchLabels);
    }
  });

  it('sets every env value and ConfigMap value as a string (the API rejects numbers and booleans)', () => {
    for (const configMap of ofKind<ConfigMap>('ConfigMap')) {
      for (const [key, value] of Object.entries(configMap.data ?? {}))
        expect(typeof value, key).toBe('string');
    }
    for (const name of NAMES) {
      for (const variable of containerOf(name).env ?? []) {
        if (!variable.valueFrom)
          expect(typeof variable.value, `${name}: ${variable.name}`).toBe('string');
      }
    }
  });

  describe.each(NAMES)('%s', (name) => {
    it('listens on the port its Service targets and its PORT env names', () => {
      const container = containerOf(name);
      const env = resolveEnv(container);
      expect(container.ports?.map((port) => port.containerPort)).toEqual([PORTS[name]]);
      expect(env.PORT).toBe(String(PORTS[name]));
      const service = serviceOf(name)!;
      expect(deploymentOf(name)!.spec.template.metadata.labels).toMatchObject(
        service.spec.selector,
      );
      for (const port of service.spec.ports) {
        expect(containerPortFor(container, port.targetPort, port.port)).toBe(PORTS[name]);
      }
    });

    it('probes liveness and startup on /healthz and readiness on /readyz, on its own port', () => {
      const container = containerOf(name);
      const probes = {
        startupProbe: '/healthz',
        livenessProbe: '/healthz',
        readinessProbe: '/readyz',
      } as const;
      for (const [probe, expectedPath] of Object.entries(probes) as [
        keyof typeof probes,
        string,
      ][]) {
        const httpGet = container[probe]?.httpGet;
        expect(httpGet?.path, probe).toBe(expectedPath);
        expect(containerPortFor(container, httpGet?.port, -1), probe).toBe(PORTS[name]);
      }
      // Migrations run before the server listens: give the first start at least a minute.
      const startup = container.startupProbe!;
      expect(
        (startup.periodSeconds ?? 10) * (startup.failureThreshold ?? 3),
      ).toBeGreaterThanOrEqual(60);
      // /readyz gives each dependency 2 s.
      expect(container.readinessProbe?.timeoutSeconds ?? 1).toBeGreaterThan(2);
    });

    it('gets every env var its config needs, HOST=0.0.0.0, and a config that parses with no localhost left', () => {
      const env = resolveEnv(containerOf(name));
      for (const key of REQUIRED_ENV[name]) expect(env, `${name} needs ${key}`).toHaveProperty(key);
      expect(env.HOST).toBe('0.0.0.0');
      const config = expectUsableConfig(name, env);
      expect(config.PORT).toBe(PORTS[name]);
    });

    it('drains gracefully: preStop sleep, then up to 15 s of shutdown within the grace period', () => {
      const pod = deploymentOf(name)!.spec.template.spec;
      expect(pod.terminationGracePeriodSeconds).toBe(30);
      const preStop = containerOf(name).lifecycle?.preStop;
      const sleepSeconds = preStop?.sleep?.seconds ?? Number(preStop?.exec?.command.at(-1));
      expect(preStop?.sleep ?? preStop?.exec?.command[0]).toBeTruthy();
      expect(sleepSeconds).toBeGreaterThan(0);
      expect(sleepSeconds + 15).toBeLessThanOrEqual(pod.terminationGracePeriodSeconds!);
    });

    it('runs as non-root on a read-only root filesystem, with writable /tmp and resource bounds', () => {
      const pod = deploymentOf(name)!.spec.template.spec;
      const container = containerOf(name);
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
      expect(pod.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
      expect(container.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
      });
      expect(container.securityContext?.capabilities?.drop).toContain('ALL');
      const mounts = new Map(container.volumeMounts?.map((mount) => [mount.mountPath, mount.name]));
      const volumes = new Map(pod.volumes?.map((volume) => [volume.name, volume]));
      expect(volumes.get(mounts.get('/tmp') ?? '')?.emptyDir, '/tmp is an emptyDir').toBeDefined();
      for (const volumeName of mounts.values())
        expect(volumes.has(volumeName), volumeName).toBe(true);
      for (const kind of ['requests', 'limits'] as const) {
        expect(container.resources?.[kind]?.cpu, kind).toBeTruthy();
        expect(container.resources?.[kind]?.memory, kind).toBeTruthy();
      }
    });
  });

  it('points every JWKS_URL at the identity Service and its key-set path', () => {
    for (const name of DOMAIN_SERVICES) {
      const jwks = urlOf(resolveEnv(containerOf(name)).JWKS_URL);
      expect(jwks.host).toBe('identity');
      expect(serviceOf('identity')!.spec.ports.map((port) => port.port)).toContain(jwks.port);
      expect(jwks.path).toBe('/.well-known/jwks.json');
    }
  });

  it('points the gateway upstream URLs at existing Services on their ports, and trusts the Ingress', () => {
    const env = resolveEnv(containerOf('gateway'));
    for (const [key, target] of Object.entries(UPSTREAMS)) {
      const upstream = urlOf(env[key]);
      expect(upstream.host, key).toBe(target);
      const servicePort = serviceOf(target)!.spec.ports.find((port) => port.port === upstream.port);
      expect(servicePort, `${key}: Service ${target} has port ${upstream.port}`).toBeDefined();
      expect(
        containerPortFor(containerOf(target), servicePort!.targetPort, servicePort!.port),
      ).toBe(PORTS[target]);
    }
    expect(env.TRUST_PROXY).toBe('1');
  });

  it('autoscales gateway, catalog, payments and delivery on CPU; those Deployments leave replicas to the HPA', () => {
    const hpas = ofKind<Hpa>('HorizontalPodAutoscaler');
    expect(hpas.map((hpa) => hpa.spec.scaleTargetRef.name).sort()).toEqual([...HPA_TARGETS].sort());
    for (const hpa of hpas) {
      const target = hpa.spec.scaleTargetRef;
      expect(target).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment' });
      expect(deploymentOf(target.name), target.name).toBeDefined();
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
      expect(hpa.spec.metrics.map((metric) => metric.resource?.name)).toContain('cpu');
      // Utilization is a share of the request, so the request must exist.
      expect(containerOf(target.name).resources?.requests?.cpu).toBeTruthy();
      expect(
        deploymentOf(target.name)!.spec.replicas,
        `${target.name}: re-applying would reset the HPA`,
      ).toBeUndefined();
    }
  });

  it('budgets disruptions of every workload with more than one replica, without blocking node drains', () => {
    const pdbs = ofKind<Pdb>('PodDisruptionBudget');
    const replicasOf = (name: string) =>
      ofKind<Hpa>('HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === name)?.spec
        .minReplicas ??
      deploymentOf(name)!.spec.replicas ??
      1;
    const multiReplica = ofKind<Deployment>('Deployment')
      .map((d) => d.metadata.name)
      .filter((name) => replicasOf(name) > 1);
    expect(multiReplica.sort()).toEqual([...PDB_TARGETS].sort());
    expect(pdbs.map((pdb) => pdb.metadata.name).sort()).toEqual([...PDB_TARGETS].sort());
    for (const pdb of pdbs) {
      const deployment = deploymentOf(pdb.metadata.name)!;
      expect(deployment.spec.template.metadata.labels).toMatchObject(pdb.spec.selector.matchLabels);
      const minReplicas =
        ofKind<Hpa>('HorizontalPodAutoscaler').find(
          (h) => h.spec.scaleTargetRef.name === pdb.metadata.name,
        )?.spec.minReplicas ??
        deployment.spec.replicas ??
        1;
      const allowed =
        pdb.spec.maxUnavailable !== undefined
          ? Number(pdb.spec.maxUnavailable)
          : minReplicas - Number(pdb.spec.minAvailable);
      expect(allowed, pdb.metadata.name).toBeGreaterThanOrEqual(1);
    }
  });

  describe('network policies', () => {
    interface Peer {
      podSelector?: { matchLabels?: Record<string, string> };
      namespaceSelector?: { matchLabels?: Record<string, string> };
      ipBlock?: { cidr: string };
    }
    interface Rule {
      from?: Peer[];
      to?: Peer[];
      ports?: { port: number; protocol?: string }[];
    }
    interface NetworkPolicy extends K8sObject {
      spec: {
        podSelector: { matchLabels?: Record<string, string> };
        policyTypes: string[];
        ingress?: Rule[];
        egress?: Rule[];
      };
    }
    const policies = ofKind<NetworkPolicy>('NetworkPolicy');
    const workloads = ofKind<Deployment>('Deployment').map((d) => d.metadata.name);
    const policyOf = (name: string) =>
      policies.find((p) => p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === name);
    const podName = (peer: Peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'];
    const servicePort = (name: string) => serviceOf(name)!.spec.ports[0]!.port;

    /**
     * caller → callee:port, from every URL (or host:port, as nginx's `server` takes) in the
     * manifests' env that names one of our Services, on the port the callee's pod listens on:
     * a policy's ports are the pod's, not the Service's (the gateway's Service maps 80 to 8080).
     */
    const needed = new Set<string>();
    /** The same calls with the port the caller dials, which must be the Service's. */
    const dialled = new Set<string>();
    for (const caller of workloads) {
      const container = deploymentOf(caller)!.spec.template.spec.containers[0]!;
      for (const value of Object.values(resolveEnv(container))) {
        if (!/^https?:\/\//.test(value) && !/^[a-z][\w-]*:\d+$/.test(value)) continue;
        const url = new URL(/^https?:/.test(value) ? value : `http://${value}`);
        if (!workloads.includes(url.hostname) || url.hostname === caller) continue;
        const podPort = containerOf(url.hostname).ports![0]!;
        needed.add(`${caller} -> ${url.hostname}:${podPort.containerPort}`);
        dialled.add(`${caller} -> ${url.hostname}:${url.port || 80}`);
      }
    }

    /** Pod-to-pod traffic both sides' policies let through. */
    const allowed = new Set<string>();
    for (const caller of workloads)
      for (const callee of workloads)
        for (const rule of policyOf(callee)?.spec.ingress ?? [])
          for (const peer of rule.from ?? []) {
            if (podName(peer) !== caller) continue;
            for (const { port } of rule.ports ?? []) {
              const egress = (policyOf(caller)?.spec.egress ?? []).some(
                (out) =>
                  (out.to ?? []).some((to) => podName(to) === callee) &&
                  (out.ports ?? []).some((p) => p.port === port),
              );
              if (egress) allowed.add(`${caller} -> ${callee}:${port}`);
            }
          }

    it('deny everything by default, and give every workload a policy of its own', () => {
      const deny = named<NetworkPolicy>('NetworkPolicy', 'default-deny')!;
      expect(deny.spec.podSelector).toEqual({});
      expect(deny.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
      for (const name of workloads) {
        expect(policyOf(name), name).toBeDefined();
        expect(policyOf(name)!.spec.policyTypes.sort(), name).toEqual(['Egress', 'Ingress']);
      }
    });

    it("let through exactly the calls the manifests configure, on the callee's port", () => {
      expect(needed.size).toBeGreaterThan(5);
      for (const edge of needed) expect(allowed, edge).toContain(edge);
      for (const edge of allowed)
        expect(needed, `${edge} is allowed but nobody calls it`).toContain(edge);
      for (const edge of dialled) {
        const [, callee, port] = /-> ([\w-]+):(\d+)$/.exec(edge)!;
        expect(Number(port), edge).toBe(servicePort(callee!));
      }
    });

    it('open only the gateway and the download edge to the ingress controller', () => {
      const fromIngress = workloads.filter((name) =>
        (policyOf(name)!.spec.ingress ?? []).some((rule) =>
          (rule.from ?? []).some(
            (peer) =>
              peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] ===
              'ingress-nginx',
          ),
        ),
      );
      expect(fromIngress.sort()).toEqual(['delivery-edge', 'gateway']);
      for (const name of fromIngress)
        for (const path of ofKind<Ingress>('Ingress')[0]!.spec.rules[0]!.http.paths)
          if (path.backend.service.name === name)
            expect(serviceOf(name)!.spec.ports.map((p) => p.name)).toContain(
              path.backend.service.port.name,
            );
      // Nothing accepts traffic from anywhere (an ipBlock) or from every namespace: a peer is
      // one of our pods or one named namespace.
      for (const policy of policies)
        for (const rule of policy.spec.ingress ?? [])
          for (const peer of rule.from ?? []) {
            expect(peer.ipBlock, policy.metadata.name).toBeUndefined();
            if (peer.namespaceSelector)
              expect(peer.namespaceSelector.matchLabels, policy.metadata.name).toBeDefined();
            else expect(podName(peer), policy.metadata.name).toBeDefined();
          }
    });

    it('let every service that sends e-mail reach an SMTP server, with a Secret to name it in', () => {
      // Catalog among them: it e-mails a seller whose custom domain was paused (issue 28).
      const senders = NAMES.filter((name) => 'SMTP_URL' in schemas[name].shape);
      expect(senders).toEqual(
        expect.arrayContaining(['identity', 'catalog', 'payments', 'worker']),
      );
      // The template's documents as written: optional keys are comments an operator fills in.
      const templateText = readFileSync(path.join(deployDir, 'secrets.example.yaml'), 'utf8');
      const documentOf = (secret: string) =>
        templateText
          .split(/^---$/m)
          .find((doc) => new RegExp(`^  name: ${secret}$`, 'm').test(doc));
      for (const name of senders) {
        const smtpOut = (policyOf(name)!.spec.egress ?? []).some(
          (rule) =>
            (rule.to ?? []).some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0') &&
            // No ports listed: every port (the worker's rule for sellers' webhook endpoints).
            (!rule.ports?.length ||
              [465, 587].every((port) => rule.ports!.some((p) => p.port === port))),
        );
        expect(smtpOut, `${name} may send to SMTP (465/587)`).toBe(true);
        const ownSecret = (containerOf(name).envFrom ?? []).find(
          ({ secretRef }) => secretRef?.name === `${name}-secrets`,
        );
        expect(ownSecret, `${name} reads ${name}-secrets`).toBeDefined();
        expect(documentOf(`${name}-secrets`), `${name}-secrets in the template`).toMatch(
          /^ {2}(# )?SMTP_URL: /m,
        );
      }
    });
  });

  it('routes the Ingress to the gateway Service (and /dl and the upload routes to the delivery edge), with a body limit that fits the largest upload', () => {
    const ingresses = ofKind<Ingress>('Ingress');
    expect(ingresses).toHaveLength(1);
    const paths = ingresses[0]!.spec.rules.flatMap((rule) => rule.http.paths);
    expect(paths.length).toBeGreaterThan(0);
    for (const { path: prefix, backend } of paths) {
      const target = EDGE_PATHS.includes(prefix) ? EDGE : 'gateway';
      expect(backend.service.name, prefix).toBe(target);
      const port = serviceOf(target)!.spec.ports.find(
        (p) => p.name === backend.service.port.name || p.port === backend.service.port.number,
      );
      expect(port, `Ingress backend port exists on the ${target} Service`).toBeDefined();
    }
    const gateway = expectUsableConfig('gateway', resolveEnv(containerOf('gateway')));
    const bodySize =
      ingresses[0]!.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '1m';
    const units: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
    const [, amount, unit] = /^(\d+)([kmg]?)$/i.exec(bodySize) ?? [];
    expect(Number(amount) * units[(unit ?? '').toLowerCase()]!).toBeGreaterThanOrEqual(
      Number(gateway.UPLOAD_BODY_LIMIT_BYTES),
    );
  });

  it("sends downloads from the edge: delivery offloads to it, and it reads delivery's own volume", () => {
    const delivery = deploymentOf('delivery')!.spec.template.spec;
    const deliveryEnv = resolveEnv(containerOf('delivery'));
    expect(deliveryEnv.DOWNLOAD_OFFLOAD).toBe('x-accel');
    const edge = deploymentOf(EDGE)!.spec.template.spec;
    const nginx = edge.containers[0]!;
    const edgeEnv = Object.fromEntries((nginx.env ?? []).map((v) => [v.name, String(v.value)]));
    // The template the kustomization ships is the file the bench and tests run, and its env
    // fills every ${VAR} in it.
    const template = readFileSync(path.join(deployDir, 'nginx', 'delivery-edge.conf'), 'utf8');
    const placeholders = new Set([...template.matchAll(/\$\{([A-Z_]+)\}/g)].map((m) => m[1]!));
    expect([...placeholders].sort()).toEqual(Object.keys(edgeEnv).sort());
    expect(kustomization.configMapGenerator).toContainEqual({
      name: 'delivery-edge-template',
      files: ['delivery-edge.conf.template=nginx/delivery-edge.conf'],
    });
    const upstream = urlOf(edgeEnv.DELIVERY_UPSTREAM!);
    expect(upstream.host).toBe('delivery');
    expect(upstream.port).toBe(PORTS.delivery);
    const claimOf = (pod: typeof edge, mountPath: string, container = pod.containers[0]!) => {
      const mount = container.volumeMounts?.find((m) => m.mountPath === mountPath);
      return pod.volumes?.find((volume) => volume.name === mount?.name)?.persistentVolumeClaim;
    };
    const deliveryClaim = claimOf(delivery, deliveryEnv.DATA_DIR!);
    const edgeClaim = claimOf(edge, edgeEnv.DATA_DIR!);
    expect(edgeClaim?.claimName).toBe(deliveryClaim?.claimName);
    expect(edgeClaim?.readOnly).toBe(true);
    expect(nginx.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
    });
    expect(edge.securityContext?.runAsNonRoot).toBe(true);
  });

  it('mounts a claimed volume at delivery DATA_DIR, writable by the pod group', () => {
    const pod = deploymentOf('delivery')!.spec.template.spec;
    const env = resolveEnv(containerOf('delivery'));
    const mount = containerOf('delivery').volumeMounts?.find((m) => m.mountPath === env.DATA_DIR);
    expect(mount, 'DATA_DIR is a volume').toBeDefined();
    const claim = pod.volumes?.find((volume) => volume.name === mount!.name)?.persistentVolumeClaim
      ?.claimName;
    expect(named('PersistentVolumeClaim', claim ?? ''), `PVC ${claim}`).toBeDefined();
  });

  it('keeps secrets in a template where each placeholder alone stops its service from starting', () => {
    expect(secretTemplates.map((secret) => secret.metadata.name)).toContain('lockdrop-secrets');
    for (const secret of secretTemplates) {
      for (const [key, value] of Object.entries(templateData(secret))) {
        expect(value, `${secret.metadata.name}.${key}`).toMatch(/^$|REPLACE_ME/);
      }
    }
    for (const name of NAMES) {
      const container = containerOf(name);
      const keysRead = secretTemplates
        .filter((secret) =>
          container.envFrom?.some((source) => source.secretRef?.name === secret.metadata.name),
        )
        .flatMap((secret) => Object.keys(templateData(secret)))
        .filter((key) => key in schemas[name].shape);
      expect(keysRead.length, `${name} reads a connection string from a Secret`).toBeGreaterThan(0);
      for (const key of keysRead) {
        const env = resolveEnv(container, (secretKey) => secretKey === key);
        expect(() => loadConfig(schemas[name], env), `${name} with ${key} unfilled`).toThrow(
          ConfigError,
        );
      }
    }
  });

  it('refuses to start a service without a Secret it has keys in (no silent development default)', () => {
    const references = NAMES.flatMap((service) =>
      (containerOf(service).envFrom ?? []).flatMap(({ secretRef }) =>
        secretRef
          ? [{ service, secret: secretRef.name, optional: secretRef.optional ?? false }]
          : [],
      ),
    );
    const templateNames = secretTemplates.map((secret) => secret.metadata.name);
    for (const reference of references.filter((r) => !r.optional)) {
      expect(templateNames, reference.service).toContain(reference.secret);
    }
    // A Secret may also be read key by key (nats-passwords: each service its own password).
    const keyReaders = NAMES.flatMap((service) =>
      (containerOf(service).env ?? []).flatMap(({ valueFrom }) =>
        valueFrom?.secretKeyRef
          ? [
              {
                service,
                secret: valueFrom.secretKeyRef.name,
                optional: valueFrom.secretKeyRef.optional ?? false,
              },
            ]
          : [],
      ),
    );
    for (const secret of secretTemplates) {
      const readers = [...references, ...keyReaders].filter(
        (reference) => reference.secret === secret.metadata.name,
      );
      expect(readers.length, `${secret.metadata.name} is read by a Deployment`).toBeGreaterThan(0);
      if (Object.keys(templateData(secret)).length === 0) continue;
      for (const reader of readers) {
        expect(reader.optional, `${reader.service} → ${reader.secret}`).toBe(false);
      }
    }
  });
});

// --- docker compose -------------------------------------------------------------------------
interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, unknown>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  stop_grace_period?: string;
  volumes?: string[];
  read_only?: boolean;
}
const compose = parse(readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8'), {
  merge: true,
}) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};

/**
 * `${VAR:-default}` as compose interpolates it with VAR unset; `${VAR:?why}` (a secret compose
 * refuses to start without) as the operator would set it, from the Secret's test values.
 */
const interpolate = (value: unknown) =>
  String(value).replace(
    /\$\{(\w+)(?::?([-?])([^}]*))?\}/g,
    (_match, name: string, kind?: string, fallback?: string) => {
      if (kind !== '?') return fallback ?? '';
      const supplied = SECRET_TEST_VALUES[name];
      if (!supplied)
        throw new Error(`compose requires ${name}: add a stand-in to SECRET_TEST_VALUES`);
      return supplied;
    },
  );
const composeEnv = (name: string) =>
  Object.fromEntries(
    Object.entries(compose.services[name]?.environment ?? {}).map(([k, v]) => [k, interpolate(v)]),
  );
function seconds(duration = '10s') {
  const [, amount, unit] = /^(\d+)(s|m)$/.exec(duration) ?? [];
  return Number(amount) * (unit === 'm' ? 60 : 1);
}

describe('docker-compose.yml', () => {
  it('runs postgres, redis, NATS with JetStream, an S3 server, the six services and the gateway', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [...NAMES, 'edge', 'nats', 'postgres', 'redis', 's3'].sort(),
    );
    const nats = compose.services.nats!;
    // JetStream and the per-service users come from the mounted config (deploy/nats).
    expect([nats.command].flat().join(' ')).toContain('-c /etc/nats/nats.conf');
    expect(readFileSync(path.join(repoRoot, 'deploy/nats/nats.conf'), 'utf8')).toMatch(
      /^jetstream \{[^}]*store_dir: \/data/m,
    );
    for (const infrastructure of ['postgres', 'redis', 'nats', 's3']) {
      expect(compose.services[infrastructure]!.healthcheck, infrastructure).toBeDefined();
    }
  });

  describe.each(NAMES)('%s', (name) => {
    it('runs from the one image with the same port and env as its Kubernetes Deployment', () => {
      const service = compose.services[name]!;
      expect(service.image).toBe(compose.services.gateway!.image);
      expect(service.build).toBeDefined();
      const env = composeEnv(name);
      expect(env.SERVICE).toBe(name);
      expect(env.PORT).toBe(String(PORTS[name]));
      expect(env.HOST).toBe('0.0.0.0');
      for (const key of REQUIRED_ENV[name]) expect(env, `${name} needs ${key}`).toHaveProperty(key);
      expectUsableConfig(name, env);

      const k8sEnv = resolveEnv(containerOf(name));
      const mirrored = (key: string) => !secretKeys.has(key) && !PER_ENVIRONMENT.has(key);
      for (const key of Object.keys(schemas[name].shape).filter(mirrored)) {
        expect(key in env, `${name}: ${key} set in compose and Kubernetes alike`).toBe(
          key in k8sEnv,
        );
      }
      for (const [key, value] of Object.entries(env)) {
        if (key in k8sEnv && !PER_ENVIRONMENT.has(key) && !secretKeys.has(key))
          expect(value, `${name}: ${key}`).toBe(k8sEnv[key]);
      }
    });

    it('has a /healthz healthcheck and time to drain on stop', () => {
      const service = compose.services[name]!;
      expect([service.healthcheck?.test].flat().join(' ')).toContain('/healthz');
      expect(seconds(service.stop_grace_period)).toBeGreaterThanOrEqual(20);
      expect(service.read_only).toBe(true);
    });
  });

  it('passes SMTP_URL from the shell to every service that sends e-mail, catalog included', () => {
    const senders = NAMES.filter((name) => 'SMTP_URL' in schemas[name].shape);
    expect(senders).toContain('catalog');
    for (const name of senders)
      expect(compose.services[name]!.environment?.SMTP_URL, name).toBe('${SMTP_URL:-}');
  });

  it('connects services to the compose postgres, NATS and Redis, and identity JWKS', () => {
    for (const name of NAMES) {
      const env = composeEnv(name);
      const expectedHosts = {
        DATABASE_URL: 'postgres',
        NATS_URL: 'nats',
        REDIS_URL: 'redis',
      } as const;
      for (const [key, host] of Object.entries(expectedHosts)) {
        if (env[key] !== undefined) expect(urlOf(env[key]).host, `${name}: ${key}`).toBe(host);
      }
      if (name !== 'gateway') {
        expect(urlOf(env.JWKS_URL)).toEqual({
          host: 'identity',
          port: PORTS.identity,
          path: '/.well-known/jwks.json',
        });
      }
    }
  });

  it('points gateway upstreams at the compose services on their PORTs', () => {
    const env = composeEnv('gateway');
    for (const [key, target] of Object.entries(UPSTREAMS)) {
      expect(urlOf(env[key]), key).toMatchObject({
        host: target,
        port: Number(composeEnv(target).PORT),
      });
    }
  });

  it('starts each service after its dependencies are healthy, and publishes only the gateway and the bucket', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(compose.services[dependency], `${name} depends on ${dependency}`).toBeDefined();
        expect(condition, `${name} → ${dependency}`).toBe('service_healthy');
        const healthcheck = compose.services[dependency]!.healthcheck;
        expect(healthcheck, `${dependency} has a healthcheck`).toBeDefined();
      }
      if (!['gateway', 's3', 'edge'].includes(name)) expect(service.ports, name).toBeUndefined();
    }
    for (const name of DOMAIN_SERVICES) {
      expect(Object.keys(compose.services[name]!.depends_on ?? {}), name).toEqual(
        expect.arrayContaining(['postgres', 'nats']),
      );
    }
    expect(Object.keys(compose.services.worker!.depends_on ?? {})).toContain('redis');
    expect(Object.keys(compose.services.gateway!.depends_on ?? {})).toEqual(
      expect.arrayContaining([...DOMAIN_SERVICES, 'redis']),
    );
    expect(compose.services.gateway!.ports?.map(interpolate)).toEqual(['8080:8080']);
    // Browsers follow presigned download redirects to the bucket, at S3_PUBLIC_ENDPOINT.
    expect(compose.services.s3!.ports?.map(interpolate)).toEqual(['9000:9000']);
    expect(composeEnv('delivery').S3_PUBLIC_ENDPOINT).toBe('http://localhost:9000');
    // Stores' custom domains: the edge takes 80 and 443 and passes everything to the gateway.
    expect(compose.services.edge!.ports?.map(interpolate)).toEqual(['80:8080', '443:8443']);
  });

  it('runs Caddy from the Dockerfile’s edge target in front of the gateway, asking it before each certificate', () => {
    const edge = compose.services.edge!;
    expect(edge.build).toMatchObject({ target: 'edge' });
    expect(edge.depends_on).toEqual({ gateway: { condition: 'service_healthy' } });
    const env = (edge.environment ?? {}) as Record<string, string>;
    expect(urlOf(env.LOCKDROP_GATEWAY!)).toMatchObject({
      host: 'gateway',
      port: Number(composeEnv('gateway').PORT),
    });
    const dockerfile = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/FROM debian:\S+ AS edge[\s\S]*apt-get install[^\n]*\bcaddy\b/);
    expect(dockerfile).toContain('COPY deploy/edge/Caddyfile /etc/caddy/Caddyfile');
    expect(compose.volumes).toHaveProperty('edge-data');
  });

  it('keeps delivery uploads in the S3 server bucket, on a named volume', () => {
    const env = composeEnv('delivery');
    expect(env).toMatchObject({ STORAGE_BACKEND: 's3', S3_ENDPOINT: 'http://s3:9000' });
    const command = [compose.services.s3!.command].flat().join(' ');
    expect(command).toContain(`--configure-bucket ${env.S3_BUCKET}`);
    const volume = compose.services
      .s3!.volumes?.map((v) => v.split(':'))
      .find(([, target]) => target === '/data');
    expect(compose.volumes).toHaveProperty(volume![0]!);
  });
});

// --- the image ------------------------------------------------------------------------------
describe('Dockerfile', () => {
  const dockerfile = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds with dev dependencies and runs on Node 24 LTS slim with production ones, as a non-root user', () => {
    expect(dockerfile).toMatch(/\bnpm ci\b(?![^\n]*--omit=dev)/);
    expect(dockerfile).toMatch(/npm run build/);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    // Node 20 reached its end of life in April 2026; CI runs the suite on 24 as well.
    expect(dockerfile).toMatch(/ARG NODE_IMAGE=node:24(\.\d+)*-(bookworm-)?slim/);
    expect(runtime).toMatch(/^\s*FROM \$\{NODE_IMAGE\} AS runtime/);
    expect(runtime).toMatch(/^USER (?!0\b|root\b)\S+/m);
    expect(dockerfile).toContain('web/dist');
    // web's server entry: the gateway renders product pages with it (WEB_RENDERER's default).
    expect(dockerfile).toContain('cp -r web/.ssr /out/web/.ssr');
  });

  it('starts services/$SERVICE/dist/main.js and health-checks /healthz on each service port', () => {
    expect(runtime).toContain('services/$SERVICE/dist/main.js');
    expect(runtime).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
    const portMap = /\{ (gateway: \d+(?:, \w+: \d+)*) \}/.exec(runtime)?.[1];
    const ports = Object.fromEntries(
      portMap!
        .split(', ')
        .map((pair) => pair.split(': '))
        .map(([k, v]) => [k, Number(v)]),
    );
    expect(ports).toEqual(PORTS);
    for (const port of Object.values(PORTS))
      expect(runtime).toMatch(new RegExp(`EXPOSE[^\\n]*\\b${port}\\b`));
  });

  it('runs each service with the Node arguments npm start gives it: the image default, plus a larger young generation where upload bodies stream through', () => {
    const imageDefault = /NODE_OPTIONS=(\S+)/.exec(runtime)?.[1];
    expect(imageDefault).toBe('--enable-source-maps');
    for (const name of NAMES) {
      const expected = [imageDefault, ...(SERVICE_NODE_ARGS[name] ?? [])].join(' ');
      // A Deployment or compose service without NODE_OPTIONS runs with the image's.
      const inKubernetes = resolveEnv(containerOf(name)).NODE_OPTIONS ?? imageDefault;
      const inCompose = composeEnv(name).NODE_OPTIONS ?? imageDefault;
      expect(inKubernetes, `${name} in Kubernetes`).toBe(expected);
      expect(inCompose, `${name} in compose`).toBe(expected);
    }
  });

  it('keeps host-built files out of the build context', () => {
    const ignored = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8').split('\n');
    for (const pattern of ['**/node_modules', '**/dist', '.git', '.env'])
      expect(ignored).toContain(pattern);
  });
});
