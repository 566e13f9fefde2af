import { AppError } from '@lockdrop/http';
import { brandLogoPath } from '@lockdrop/contracts';

export interface LogoDirectory {
  /** Whether delivery holds this logo for this seller (the path names the seller, so no one borrows another's). */
  exists(sellerId: string, logoId: string, requestId: string): Promise<boolean>;
}

const TIMEOUT_MS = 5_000;

/** Asks delivery, which stores logos beside product previews, whether the logo was uploaded. */
export function deliveryLogos(deliveryUrl: string): LogoDirectory {
  return {
    async exists(sellerId, logoId, requestId) {
      let response: Response;
      try {
        response = await fetch(new URL(brandLogoPath(sellerId, logoId), deliveryUrl), {
          method: 'HEAD',
          headers: { 'x-request-id': requestId },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch {
        throw new AppError(
          'delivery_unavailable',
          503,
          'The file service is not reachable right now; please try again',
        );
      }
      return response.ok;
    },
  };
}
