import { randomBytes } from 'node:crypto';
import type { AuthUser } from '@lockdrop/auth';
import { findSellerPlan } from '@lockdrop/bus';
import type {
  AddDomainInput,
  DomainRoute,
  DomainSettings,
  DomainStatus,
  StoreDomain,
} from '@lockdrop/contracts';
import { withTransaction, type Pool, type Queryable } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { enqueueMail, renderEmail } from '@lockdrop/mailer';
import { PLANS, planById } from '@lockdrop/plans';
import { DnsUnavailableError, type DnsLookups } from '../adapters/dns.js';
import { findBrandOf } from '../db/brands.repo.js';
import {
  deleteDomain,
  domainsCheckedBefore,
  findDomainByHost,
  findDomainOf,
  recordCheck,
  recordUnanswered,
  saveDomain,
  updateSellerEmail,
  type StoreDomainRow,
} from '../db/domains.repo.js';
import { enqueueDomainUpdated } from '../events/domains.producer.js';
import {
  checkDomain,
  checkMessage,
  DNS_UNAVAILABLE_MESSAGE,
  expectedRecords,
  isApex,
  normalizeHost,
  type DomainCheck,
  type Edge,
} from './domain-rules.js';

/** The cheapest plan whose table row includes a custom domain (Business today). */
export const DOMAIN_PLAN = PLANS.find((plan) => plan.customDomain)!.id;
/** Domains re-checked at once by one clock firing. */
const RECHECK_CONCURRENCY = 4;
const RECHECK_BATCH = 100;

export interface Seller {
  user: AuthUser;
  requestId: string;
}

export interface DomainService {
  settings(user: AuthUser): Promise<DomainSettings>;
  add(seller: Seller, input: AddDomainInput): Promise<DomainSettings>;
  remove(seller: Seller): Promise<void>;
  /** "Verify now": looks the records up at once and answers the new state. */
  verifyNow(seller: Seller): Promise<DomainSettings>;
  /** The clock's firing at `dueAt`: every domain not looked at since is looked at again. */
  recheckDue(dueAt: Date, correlationId: string): Promise<number>;
  /** Which store `host` shows (the gateway asks; it caches the answer). */
  route(host: string): Promise<DomainRoute | null>;
}

/**
 * The state a check leads to. Both records found: verified. Otherwise a pending or paused
 * domain stays as it is, and a verified one counts the failure and pauses after
 * `failuresBeforePause` in a row (one odd answer does not take a shop offline).
 */
export function nextState(
  current: Pick<StoreDomainRow, 'status' | 'failedChecks' | 'verifiedAt'>,
  check: DomainCheck,
  { failuresBeforePause, now }: { failuresBeforePause: number; now: Date },
): { status: DomainStatus; failedChecks: number; verifiedAt: Date | null } {
  if (check.ownership === 'ok' && check.routing === 'ok')
    return {
      status: 'verified',
      failedChecks: 0,
      verifiedAt: current.status === 'verified' ? current.verifiedAt : now,
    };
  if (current.status !== 'verified')
    return { status: current.status, failedChecks: 0, verifiedAt: current.verifiedAt };
  const failedChecks = current.failedChecks + 1;
  return {
    status: failedChecks >= failuresBeforePause ? 'paused' : 'verified',
    failedChecks,
    verifiedAt: current.verifiedAt,
  };
}

const domainTaken = (host: string) =>
  new AppError('domain_taken', 409, `${host} is already connected to another store`);

export function createDomainService({
  pool,
  dns,
  edge,
  ownHosts,
  failuresBeforePause,
  publicUrl,
  now = () => new Date(),
  onMailQueued = () => undefined,
}: {
  pool: Pool;
  dns: DnsLookups;
  edge: Edge;
  /** Lockdrop's own hosts (the public site, the edge): never a store's domain. */
  ownHosts: readonly string[];
  failuresBeforePause: number;
  publicUrl: string;
  now?: () => Date;
  onMailQueued?: () => void;
}): DomainService {
  async function currentPlan(user: AuthUser) {
    return planById((await findSellerPlan(pool, user.id)) ?? user.plan);
  }

  const view = (row: StoreDomainRow): StoreDomain => ({
    host: row.host,
    status: row.status,
    records: expectedRecords(row.host, row.token, edge),
    apex: isApex(row.host),
    lastCheckedAt: row.lastCheckedAt?.toISOString() ?? null,
    lastCheck: row.lastCheck,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
  });

  async function settingsOf(user: AuthUser): Promise<DomainSettings> {
    const [row, plan, brand] = await Promise.all([
      findDomainOf(pool, user.id),
      currentPlan(user),
      findBrandOf(pool, user.id),
    ]);
    return {
      domain: row ? view(row) : null,
      plan: plan.id,
      domainIncluded: plan.customDomain,
      domainPlan: DOMAIN_PLAN,
      handle: brand?.handle ?? null,
    };
  }

  async function requirePlan(user: AuthUser) {
    const plan = await currentPlan(user);
    if (!plan.customDomain)
      throw new AppError(
        'plan_upgrade_required',
        403,
        `A custom domain comes with the ${planById(DOMAIN_PLAN).name} plan; you are on ${plan.name}`,
      );
    return plan;
  }

  const pausedMail = (domain: StoreDomainRow) => {
    const settingsUrl = `${publicUrl.replace(/\/+$/, '')}/settings#domain`;
    const email = renderEmail({
      subject: `Your domain ${domain.host} is paused`,
      heading: `We paused ${domain.host}`,
      paragraphs: [
        `The DNS records of ${domain.host} were missing or pointed elsewhere on ${failuresBeforePause} checks in a row, so the domain no longer shows your store. Your Lockdrop addresses keep working.`,
        'Put the records back as your settings show them and press "Verify now"; the domain serves your store again as soon as both are found.',
      ],
      action: { label: 'Open domain settings', url: settingsUrl },
    });
    return { to: domain.sellerEmail, subject: email.subject, text: email.text, html: email.html };
  };

  /** Looks `sellerId`'s domain up in DNS and records what it found; false if DNS did not answer. */
  async function check(sellerId: string, correlationId: string): Promise<boolean> {
    const domain = await findDomainOf(pool, sellerId);
    if (!domain) return true;
    const checkedAt = now();
    let found: DomainCheck;
    try {
      found = await checkDomain(dns, domain, edge);
    } catch (error) {
      if (!(error instanceof DnsUnavailableError)) throw error;
      await recordUnanswered(pool, sellerId, DNS_UNAVAILABLE_MESSAGE, checkedAt);
      return false;
    }
    let mailed = false;
    await withTransaction(pool, async (tx) => {
      // Under the row's lock: a domain replaced or removed meanwhile keeps its new state.
      const current = await findDomainOf(tx, sellerId, { forUpdate: true });
      if (!current || current.host !== domain.host || current.token !== domain.token) return;
      const next = nextState(current, found, { failuresBeforePause, now: checkedAt });
      await recordCheck(tx, sellerId, {
        ...next,
        ...found,
        message: checkMessage(found),
        checkedAt,
      });
      if (next.status === current.status) return;
      await enqueueDomainUpdated(
        tx,
        { sellerId, host: current.host, status: next.status },
        correlationId,
      );
      if (next.status === 'paused') {
        await enqueueMail(tx, pausedMail(current));
        mailed = true;
      }
    });
    if (mailed) onMailQueued();
    return true;
  }

  async function replace(tx: Queryable, seller: Seller, host: string, planId: string) {
    const previous = await findDomainOf(tx, seller.user.id, { forUpdate: true });
    if (previous?.host === host) {
      // The same host again keeps its token, so records already created stay right.
      await updateSellerEmail(tx, seller.user.id, seller.user.email);
      return;
    }
    await saveDomain(tx, {
      sellerId: seller.user.id,
      host,
      token: randomBytes(16).toString('hex'),
      sellerEmail: seller.user.email,
      planAtSave: planId,
    });
    if (previous)
      await enqueueDomainUpdated(
        tx,
        { sellerId: seller.user.id, host: previous.host, status: 'removed' },
        seller.requestId,
      );
    await enqueueDomainUpdated(
      tx,
      { sellerId: seller.user.id, host, status: 'pending' },
      seller.requestId,
    );
  }

  return {
    settings: settingsOf,

    async add(seller, input) {
      const plan = await requirePlan(seller.user);
      const host = normalizeHost(input.host, ownHosts);
      if (!(await findBrandOf(pool, seller.user.id)))
        throw new AppError(
          'store_handle_required',
          409,
          'Save your store’s handle under Brand first: the domain shows that store',
        );
      const holder = await findDomainByHost(pool, host);
      if (holder && holder.sellerId !== seller.user.id) throw domainTaken(host);
      try {
        await withTransaction(pool, (tx) => replace(tx, seller, host, plan.id));
      } catch (error) {
        // Two stores racing for one host: the unique index decides.
        if ((error as { code?: string }).code === '23505') throw domainTaken(host);
        throw error;
      }
      return settingsOf(seller.user);
    },

    async remove(seller) {
      await withTransaction(pool, async (tx) => {
        const host = await deleteDomain(tx, seller.user.id);
        if (!host) throw new AppError('domain_not_found', 404, 'No domain is connected');
        await enqueueDomainUpdated(
          tx,
          { sellerId: seller.user.id, host, status: 'removed' },
          seller.requestId,
        );
      });
    },

    async verifyNow(seller) {
      await requirePlan(seller.user);
      const domain = await findDomainOf(pool, seller.user.id);
      if (!domain) throw new AppError('domain_not_found', 404, 'No domain is connected');
      await updateSellerEmail(pool, seller.user.id, seller.user.email);
      await check(seller.user.id, seller.requestId);
      return settingsOf(seller.user);
    },

    async recheckDue(dueAt, correlationId) {
      let checked = 0;
      for (;;) {
        const due = await domainsCheckedBefore(pool, dueAt, RECHECK_BATCH);
        if (due.length === 0) return checked;
        for (let start = 0; start < due.length; start += RECHECK_CONCURRENCY) {
          await Promise.all(
            due
              .slice(start, start + RECHECK_CONCURRENCY)
              .map((sellerId) => check(sellerId, correlationId)),
          );
        }
        checked += due.length;
        // A clock set behind the firing would find the same domains again: stop after a round.
        if (now() < dueAt) return checked;
      }
    },

    async route(host) {
      const row = await findDomainByHost(pool, host.toLowerCase());
      if (!row?.handle) return null;
      return {
        host: row.host,
        sellerId: row.sellerId,
        handle: row.handle,
        serving: row.status === 'verified' && planById(row.plan).customDomain,
      };
    },
  };
}
