import { recordAction, type ActionSource } from '../audit/index.js';
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '@lockdrop/auth';
import type {
  PayoutDestination,
  PayoutDestinationInput,
  PayoutInstruction,
  PayoutMethod,
} from '@lockdrop/contracts';
import { withTransaction, type Pool } from '@lockdrop/db';
import { AppError } from '@lockdrop/http';
import { enqueueMail } from '@lockdrop/mailer';
import { sellerAccountTotals } from '../ledger/index.js';
import {
  findCurrentDestination,
  replaceDestination,
  type StoredDestination,
} from './payouts.repository.js';
import type { PaymentProvider } from '../../providers/types.js';
import { destinationAddedEmail, destinationChangedEmail } from './payout-emails.js';
import type { SecretBox } from '@lockdrop/auth';

/**
 * Which currencies each kind of destination receives. A balance in another currency is
 * converted at payout time (into the first one listed), shown to the seller and journaled.
 */
export const RECEIVABLE_CURRENCIES: Record<PayoutMethod, readonly string[]> = {
  bank: ['NGN'],
  payoneer: ['USD', 'EUR', 'GBP'],
  wise: ['USD', 'EUR', 'GBP', 'NGN', 'CAD', 'AUD'],
};

export type DestinationSecret = Extract<PayoutInstruction['destination'], object>;

export function maskTail(value: string, visible = 4): string {
  return `•••• ${value.slice(-visible)}`;
}

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}•••@${domain}`;
}

export interface DestinationDeps {
  pool: Pool;
  provider: PaymentProvider;
  box: SecretBox;
  now: () => Date;
  onMailQueued: () => void;
  /**
   * Hours payouts wait after a destination is added (while a balance exists) or changed, so a
   * hijacked account cannot redirect money at once (DESTINATION_CHANGE_HOLD_HOURS).
   */
  holdHours: number;
}

export function toDestinationView(destination: StoredDestination, now: Date): PayoutDestination {
  const held = destination.payoutsHeldUntil && destination.payoutsHeldUntil > now;
  return {
    method: destination.method,
    label: destination.label,
    bankCode: destination.bankCode,
    bankName: destination.bankName,
    accountName: destination.accountName,
    accountNumberMasked: destination.accountNumberMasked,
    emailMasked: destination.emailMasked,
    accountIdMasked: destination.accountIdMasked,
    currencies: [...RECEIVABLE_CURRENCIES[destination.method]],
    updatedAt: destination.createdAt.toISOString(),
    payoutsHeldUntil: held ? destination.payoutsHeldUntil!.toISOString() : null,
  };
}

export async function getDestination(
  deps: DestinationDeps,
  sellerId: string,
): Promise<PayoutDestination | null> {
  const destination = await findCurrentDestination(deps.pool, sellerId);
  return destination ? toDestinationView(destination, deps.now()) : null;
}

/** The bank's name for the account, checked with the provider while the seller waits. */
export async function resolveAccountName(
  deps: Pick<DestinationDeps, 'provider'>,
  account: { bankCode: string; accountNumber: string },
): Promise<string> {
  const name = await deps.provider.resolveBankAccount(account);
  if (!name)
    throw new AppError(
      'account_not_found',
      422,
      'We could not find that account. Check the bank and the number.',
    );
  return name;
}

/**
 * Saves the seller's destination, sealed. A bank account is resolved again here and must match
 * the name the seller confirmed. Every save e-mails the seller (a change: the previous address
 * too). A change holds payouts for `holdHours`; so does the first destination when the seller
 * already has money with us — a hijacked account with a balance and no destination yet must
 * not be drained at once (issue 30). The route asks for a recent re-authentication first.
 */
export async function saveDestination(
  deps: DestinationDeps,
  user: AuthUser,
  input: PayoutDestinationInput,
  source: ActionSource,
  correlationId: string,
): Promise<PayoutDestination> {
  const now = deps.now();
  const base = {
    id: randomUUID(),
    sellerId: user.id,
    method: input.method,
    bankCode: null,
    bankName: null,
    accountName: null,
    accountNumberMasked: null,
    emailMasked: null,
    accountIdMasked: null,
    notifyEmail: user.email,
    createdAt: now,
    payoutsHeldUntil: null,
  } satisfies Partial<StoredDestination>;
  let destination: StoredDestination;
  if (input.method === 'bank') {
    const banks = await deps.provider.listBanks();
    const bank = banks.find((candidate) => candidate.code === input.bankCode);
    if (!bank) throw new AppError('unknown_bank', 400, 'Please choose your bank from the list');
    const resolved = await resolveAccountName(deps, input);
    if (normalizeName(resolved) !== normalizeName(input.accountName))
      throw new AppError(
        'account_name_mismatch',
        422,
        `The bank says this account belongs to ${resolved}. Check the number, or confirm that name.`,
      );
    const secret: DestinationSecret = {
      method: 'bank',
      bankCode: bank.code,
      accountNumber: input.accountNumber,
      accountName: resolved,
    };
    destination = {
      ...base,
      bankCode: bank.code,
      bankName: bank.name,
      accountName: resolved,
      accountNumberMasked: maskTail(input.accountNumber),
      label: `${bank.name} ${maskTail(input.accountNumber)}`,
      sealedSecret: deps.box.seal(JSON.stringify(secret), destinationSealContext(base)),
    };
  } else if (input.method === 'payoneer') {
    const secret: DestinationSecret = { method: 'payoneer', email: input.email };
    destination = {
      ...base,
      emailMasked: maskEmail(input.email),
      label: `Payoneer ${maskEmail(input.email)}`,
      sealedSecret: deps.box.seal(JSON.stringify(secret), destinationSealContext(base)),
    };
  } else {
    const secret: DestinationSecret = {
      method: 'wise',
      email: input.email,
      accountId: input.accountId,
    };
    destination = {
      ...base,
      emailMasked: maskEmail(input.email),
      accountIdMasked: maskTail(input.accountId, Math.min(4, input.accountId.length - 1)),
      label: `Wise ${maskEmail(input.email)}`,
      sealedSecret: deps.box.seal(JSON.stringify(secret), destinationSealContext(base)),
    };
  }

  await withTransaction(deps.pool, async (tx) => {
    const previous = await findCurrentDestination(tx, user.id, { forUpdate: true });
    const holds =
      deps.holdHours > 0 &&
      (previous !== null ||
        (await sellerAccountTotals(tx, user.id)).some(
          (total) => total.pendingMinor !== 0 || total.availableMinor !== 0,
        ));
    if (holds) destination.payoutsHeldUntil = new Date(now.getTime() + deps.holdHours * 3_600_000);
    if (previous) {
      // Both addresses hear of it: the old one may be the real owner's.
      for (const to of new Set([previous.notifyEmail, user.email])) {
        await enqueueMail(
          tx,
          destinationChangedEmail({
            to,
            previousLabel: previous.label,
            newLabel: destination.label,
            heldUntil: destination.payoutsHeldUntil,
          }),
        );
      }
    } else {
      await enqueueMail(
        tx,
        destinationAddedEmail({
          to: user.email,
          newLabel: destination.label,
          heldUntil: destination.payoutsHeldUntil,
        }),
      );
    }
    await replaceDestination(tx, destination);
    await recordAction(
      tx,
      source,
      {
        storeId: user.id,
        action: previous ? 'payout_destination.changed' : 'payout_destination.added',
        target: destination.label,
        details: {
          ...(previous ? { previous: previous.label } : {}),
          heldUntil: destination.payoutsHeldUntil?.toISOString() ?? null,
        },
      },
      correlationId,
    );
  });
  deps.onMailQueued();
  return toDestinationView(destination, now);
}

/** What a destination's sealed details are bound to: its own row (see libs/auth SecretBox). */
export const destinationSealContext = (destination: { id: string; sellerId: string }): string =>
  `payout-destination:${destination.sellerId}:${destination.id}`;

export function openDestination(box: SecretBox, destination: StoredDestination): DestinationSecret {
  return JSON.parse(
    box.open(destination.sealedSecret, destinationSealContext(destination)),
  ) as DestinationSecret;
}

function normalizeName(name: string): string {
  return name.normalize('NFKC').toUpperCase().replace(/\s+/g, ' ').trim();
}
