import { randomBytes } from 'node:crypto';
import {
  eventPublishers,
  productSnapshotEventTypes,
  type CommandName,
  type EventType,
} from '@lockdrop/contracts';
import {
  assertNamespace,
  commandSubject,
  deadLetterSubject,
  durableName,
  eventSubject,
  filterSubject,
  inboxPrefix,
  streamNames,
  type EventFilter,
} from './naming.js';

/**
 * Who may do what on the bus (issue 30): the one table the NATS server's users are generated
 * from (`natsAuthorization`, `npm run nats-permissions`) and that `connectBus` holds each
 * service to, so a consumer, command or event missing here fails in `npm test` rather than as a
 * permissions violation in production.
 */
export interface BusRole {
  /** Event types it publishes: its own events (libs/contracts `eventPublishers`), nothing else. */
  publishes: readonly EventType[];
  /** Its durable consumers, name → filter: it may create, pull from and ack these alone. */
  consumers: Readonly<Record<string, EventFilter>>;
  /** Plain subscriptions to live events (the gateway's caches, see watch.ts). */
  watches: readonly EventFilter[];
  /** Commands it answers (a queue subscription, and a reply to each request it got). */
  serves: readonly CommandName[];
  /** Commands it asks. */
  requests: readonly CommandName[];
  /** Creates or updates the namespace's streams at start (every domain service does). */
  managesStreams: boolean;
}

/** Consumers named `<service>.products-<what>`, one per product snapshot type, as catalog's events. */
const productSnapshotConsumers = (service: string): Record<string, EventFilter> =>
  Object.fromEntries(
    [...productSnapshotEventTypes, 'product.deleted' as const].map((type) => [
      `${service}.${type.replace('product.', 'products-')}`,
      type,
    ]),
  );

/** Every domain service prunes its own bus bookkeeping on the worker's `retention.due`. */
const retention = (service: string): Record<string, EventFilter> => ({
  [`${service}.retention`]: 'retention.due',
});

const none = { watches: [], serves: [], requests: [] } as const;

export const busRoles = {
  identity: {
    ...none,
    publishes: eventPublishers.identity,
    consumers: {
      'identity.plan-changed': 'plan.changed',
      // Money actions of other services, into the store's one audit log (issue 28).
      'identity.audit': 'audit.*',
      ...retention('identity'),
    },
    managesStreams: true,
  },
  catalog: {
    ...none,
    publishes: eventPublishers.catalog,
    consumers: {
      'catalog.fx-rates': 'fx.rates.updated',
      'catalog.storefront-views': 'storefront.products_viewed',
      'catalog.plans': 'plan.changed',
      // The seller's name on their product pages (seller-names.consumer.ts).
      'catalog.users': 'user.*',
      'catalog.profiles': 'profile.updated',
      // The worker's clock: every custom domain's DNS is looked at again (domain-rechecks.consumer.ts).
      'catalog.domain-rechecks': 'domains.recheck_due',
      ...retention('catalog'),
    },
    // An API upload naming a product: catalog checks the product, then appends the file.
    serves: ['products.file_attachable', 'products.attach_file'],
    managesStreams: true,
  },
  payments: {
    ...none,
    publishes: eventPublishers.payments,
    consumers: {
      ...productSnapshotConsumers('payments'),
      'payments.sellers': 'profile.updated',
      'payments.plans': 'plan.changed',
      'payments.brands': 'store.brand_updated',
      'payments.domains': 'store.domain_updated',
      'payments.fx': 'fx.rates.updated',
      'payments.products-files-added': 'product.files_added',
      'payments.payout-runs': 'payout.run_due',
      'payments.payout-submitted': 'payout.transfer_submitted',
      'payments.payout-unknown': 'payout.transfer_unknown',
      'payments.payout-completed': 'payout.transfer_completed',
      'payments.subscriptions-due': 'subscriptions.due',
      ...retention('payments'),
    },
    // Payments alone knows where a payout goes; it tells the worker, sealed (see commands.ts).
    serves: ['payouts.instruction'],
    requests: ['access.suspend_for_refund'],
    managesStreams: true,
  },
  delivery: {
    ...none,
    publishes: eventPublishers.delivery,
    consumers: {
      ...productSnapshotConsumers('delivery'),
      'delivery.purchases-paid': 'purchase.paid',
      'delivery.purchases-refunded': 'purchase.refunded',
      'delivery.subscriptions': 'subscription.*',
      'delivery.purchases-reinstated': 'purchase.reinstated',
      'delivery.purchases-refund-failed': 'purchase.refund_failed',
      'delivery.plans': 'plan.changed',
      ...retention('delivery'),
    },
    serves: ['access.suspend_for_refund'],
    requests: ['products.file_attachable', 'products.attach_file'],
    managesStreams: true,
  },
  analytics: {
    ...none,
    publishes: [],
    consumers: {
      ...productSnapshotConsumers('analytics'),
      'analytics.views': 'product.viewed',
      'analytics.checkouts-started': 'checkout.started',
      'analytics.purchases-paid': 'purchase.paid',
      'analytics.purchases-refunded': 'purchase.refunded',
      'analytics.downloads': 'download.completed',
      ...retention('analytics'),
    },
    managesStreams: true,
  },
  worker: {
    ...none,
    publishes: eventPublishers.worker,
    consumers: {
      'worker.payouts-requested': 'payout.requested',
      'worker.payouts-reported': 'payout.transfer_reported',
      // Sellers' webhooks (services/worker/src/webhooks/webhooks.consumer.ts).
      'worker.webhooks-purchase': 'purchase.*',
      'worker.webhooks-subscription': 'subscription.*',
      'worker.webhooks-payout': 'payout.*',
      'worker.webhooks-product-created': 'product.created',
      'worker.webhooks-product-updated': 'product.updated',
      'worker.webhooks-product-files-added': 'product.files_added',
      ...retention('worker'),
    },
    requests: ['payouts.instruction'],
    managesStreams: true,
  },
  /**
   * Only what it reads — the events that change a cached product page and API-key revocations
   * (services/gateway/src/storefront) — and the view counts it hands to catalog. No consumer, no
   * stream, no command: a gateway that is taken over can neither pay a purchase nor ask where
   * a payout goes.
   */
  gateway: {
    ...none,
    publishes: eventPublishers.gateway,
    consumers: {},
    watches: [
      'product.created',
      'product.updated',
      'product.published',
      'product.unpublished',
      'product.deleted',
      'fx.rates.updated',
      'store.brand_updated',
      'plan.changed',
      'api_key.revoked',
      // Team removals and role changes drop the membership cache at once (issue 28); after an
      // ownership transfer the former owner's tokens from before it are refused.
      'store.member_removed',
      'store.member_role_changed',
      'store.ownership_transferred',
      // A custom domain's new state serves on the next request (issue 28, http/custom-domains.ts).
      'store.domain_updated',
    ],
    managesStreams: false,
  },
} as const satisfies Record<string, BusRole>;

export type ServiceRole = keyof typeof busRoles;
/** `operator`: `npm run dlq` (reads and replays dead letters) and JetStream's read-only views. */
export type BusRoleName = ServiceRole | 'operator';
export const busRoleNames = [...(Object.keys(busRoles) as ServiceRole[]), 'operator'] as const;

export function isServiceRole(name: string): name is ServiceRole {
  return Object.hasOwn(busRoles, name);
}

export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  /** May answer the requests it receives (one reply each), whatever the requester's inbox. */
  allow_responses?: true;
}

const API = '$JS.API';

/**
 * The NATS permissions of `role` connecting as `user` on `namespace`: each subject exact where
 * NATS allows it — its consumers by durable name and filter, its acks by durable, its events by
 * type, its replies in its own inbox (`_INBOX_<user>`).
 */
export function busPermissions(
  role: BusRoleName,
  namespace: string,
  user: string,
): NatsPermissions {
  assertNamespace(namespace);
  const { events, deadLetters } = streamNames(namespace);
  const inbox = `${inboxPrefix(user)}.>`;
  if (role === 'operator') {
    return {
      publish: {
        allow: [
          `${API}.INFO`,
          `${API}.STREAM.INFO.*`,
          `${API}.STREAM.NAMES`,
          `${API}.STREAM.LIST`,
          `${API}.CONSUMER.INFO.*.*`,
          `${API}.CONSUMER.NAMES.*`,
          `${API}.CONSUMER.LIST.*`,
          `${API}.STREAM.MSG.GET.${deadLetters}`,
          `${API}.STREAM.MSG.DELETE.${deadLetters}`,
          // A replay puts a dead letter back on its own subject, whichever service published it.
          `${namespace}.events.>`,
        ],
      },
      subscribe: { allow: [inbox] },
    };
  }
  const spec: BusRole = busRoles[role];
  const publish = [
    ...spec.publishes.map((type) => eventSubject(namespace, type)),
    ...spec.requests.map((command) => commandSubject(namespace, command)),
  ];
  if (spec.managesStreams) {
    publish.push(`${API}.INFO`);
    for (const stream of [events, deadLetters])
      publish.push(`${API}.STREAM.CREATE.${stream}`, `${API}.STREAM.UPDATE.${stream}`);
  }
  for (const [consumer, filter] of Object.entries(spec.consumers)) {
    const durable = durableName(consumer);
    publish.push(
      // nats-server ≥ 2.9 names the filter in the subject: this durable, this filter, no other.
      `${API}.CONSUMER.CREATE.${events}.${durable}.${filterSubject(namespace, filter)}`,
      `${API}.CONSUMER.INFO.${events}.${durable}`,
      `${API}.CONSUMER.MSG.NEXT.${events}.${durable}`,
      `$JS.ACK.${events}.${durable}.>`,
      deadLetterSubject(namespace, consumer),
    );
  }
  const subscribe = [
    inbox,
    ...spec.watches.map((filter) => filterSubject(namespace, filter)),
    ...spec.serves.map((command) => commandSubject(namespace, command)),
  ];
  return {
    publish: { allow: publish },
    subscribe: { allow: subscribe },
    ...(spec.serves.length > 0 ? { allow_responses: true as const } : {}),
  };
}

export interface BusUser {
  role: BusRoleName;
  /** The NATS user name (NATS_USER): the role's name, or another during a rotation. */
  user: string;
  /** The password itself, or `{ env }`: a variable the nats-server process reads at start. */
  password: string | { env: string };
}

/** `NATS_PASSWORD_PAYMENTS`: the variable a config with `{ env }` passwords reads for a user. */
export function passwordVariable(user: string): string {
  return `NATS_PASSWORD_${user.toUpperCase().replaceAll('-', '_')}`;
}

/** One user per role (services and operator), named after it, with a fresh random password. */
export function randomBusUsers(): Array<BusUser & { password: string }> {
  return busRoleNames.map((role) => ({
    role,
    user: role,
    password: randomBytes(24).toString('base64url'),
  }));
}

/** Every role, its password read from `NATS_PASSWORD_<ROLE>` by nats-server (compose, Kubernetes). */
export function envBusUsers(): BusUser[] {
  return busRoleNames.map((role) => ({
    role,
    user: role,
    password: { env: passwordVariable(role) },
  }));
}

/**
 * The nats-server `authorization { users = [...] }` block for `users` on `namespace`. Subjects
 * are quoted (they start with `$`, which nats-server would read as a variable unquoted); a
 * `{ env }` password is left unquoted, so the server reads that environment variable.
 */
export function natsAuthorization({
  namespace,
  users,
}: {
  namespace: string;
  users: BusUser[];
}): string {
  const quote = (text: string) => JSON.stringify(text);
  const list = (subjects: string[]) =>
    `[\n${subjects.map((subject) => `          ${quote(subject)}`).join(',\n')}\n        ]`;
  const entries = users.map(({ role, user, password }) => {
    if (!/^[a-z][a-z0-9_-]*$/.test(user)) throw new Error(`invalid NATS user name: ${user}`);
    const permissions = busPermissions(role, namespace, user);
    const secret =
      typeof password === 'string'
        ? quote(password)
        : `$${password.env.replace(/[^A-Z0-9_]/g, '')}`;
    return [
      `    # ${role}`,
      `    {`,
      `      user: ${quote(user)}`,
      `      password: ${secret}`,
      `      permissions: {`,
      `        publish: { allow: ${list(permissions.publish.allow)} }`,
      `        subscribe: { allow: ${list(permissions.subscribe.allow)} }`,
      ...(permissions.allow_responses ? [`        allow_responses: true`] : []),
      `      }`,
      `    }`,
    ].join('\n');
  });
  return [
    `# Generated by \`npm run nats-permissions\` from libs/bus/src/permissions.ts (namespace ${namespace}).`,
    `authorization {`,
    `  users = [`,
    entries.join('\n'),
    `  ]`,
    `}`,
    '',
  ].join('\n');
}

/** The Secret holding each user's password under `NATS_PASSWORD_<USER>` (deploy/base/secrets.example.yaml). */
export const NATS_PASSWORDS_SECRET = 'nats-passwords';

/**
 * Values for the official NATS Helm chart (1.x) with the same users: `config.merge` writes the
 * authorization block (`<< $VAR >>` is the chart's way to write an unquoted variable), and each
 * password comes into the server's environment from the `nats-passwords` Secret.
 */
export function natsHelmValues({
  namespace,
  users: accounts = envBusUsers(),
}: {
  namespace: string;
  /** Default: one user per role; during a rotation, a second user for a role too. */
  users?: Array<Pick<BusUser, 'role' | 'user'>>;
}): {
  config: { merge: { authorization: { users: object[] } } };
  container: { env: Record<string, object> };
} {
  const users = accounts.map(({ role, user }) => ({
    user,
    password: `<< $${passwordVariable(user)} >>`,
    permissions: busPermissions(role, namespace, user),
  }));
  const env = Object.fromEntries(
    accounts.map(({ user }) => [
      passwordVariable(user),
      { valueFrom: { secretKeyRef: { name: NATS_PASSWORDS_SECRET, key: passwordVariable(user) } } },
    ]),
  );
  return { config: { merge: { authorization: { users } } }, container: { env } };
}
