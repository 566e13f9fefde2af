import type { Pool } from '@lockdrop/db';
import type { AuthUser } from '@lockdrop/auth';
import { AppError } from '@lockdrop/http';
import { listPaidPurchases, listSales, type Purchase } from './purchases.repository.js';

/**
 * `GET /api/purchases`. An unverified e-mail proves nothing about who reads that mailbox, so it
 * is refused outright (403 `email_not_verified`) rather than answered with an empty list that
 * would read as "No purchases yet".
 */
export async function listMyPurchases(pool: Pool, user: AuthUser): Promise<Purchase[]> {
  if (!user.emailVerified) {
    throw new AppError(
      'email_not_verified',
      403,
      'Verify your e-mail address to see your purchases',
    );
  }
  return listPaidPurchases(pool, user.email);
}

export async function listMySales(pool: Pool, user: AuthUser, limit: number): Promise<Purchase[]> {
  return listSales(pool, user.id, limit);
}
