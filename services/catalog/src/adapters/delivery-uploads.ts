import { AppError } from '@lockdrop/http';
import { z } from 'zod';
import { fileKindSchema } from '@lockdrop/contracts';

/** What catalog keeps of an upload: enough for the product card and the product events. */
export interface OwnUpload {
  id: string;
  fileName: string;
  sizeBytes: number;
  kind: z.infer<typeof uploadSchema>['kind'];
}

export interface UploadDirectory {
  /**
   * The caller's own upload, or null when it does not exist or belongs to someone else.
   * `viaApiKey`: the token was minted for an API key, which opens only delivery's `/api/v1` routes.
   */
  findOwnUpload(
    fileId: string,
    access: { token: string; requestId: string; viaApiKey?: boolean },
  ): Promise<OwnUpload | null>;
}

// Delivery's GET /api/uploads/:fileId (or /api/v1/files/:fileId); only the fields catalog reads
// are checked.
const uploadSchema = z.object({
  id: z.uuid(),
  fileName: z.string().min(1),
  sizeBytes: z.number().int().nonnegative(),
  kind: fileKindSchema,
});

const TIMEOUT_MS = 5_000;

const unavailable = () =>
  new AppError(
    'delivery_unavailable',
    503,
    'The file service is not reachable right now; please try again',
  );

/**
 * Asks delivery synchronously, with the seller's own token: the seller is waiting and a file
 * uploaded a second ago must count, which an event-fed copy could not promise.
 */
export function deliveryUploads(deliveryUrl: string): UploadDirectory {
  return {
    async findOwnUpload(fileId, access) {
      // A key's token never opens a session route (libs/auth): it asks the API's own file route.
      const base = access.viaApiKey ? '/api/v1/files/' : '/api/uploads/';
      const url = new URL(`${base}${encodeURIComponent(fileId)}`, deliveryUrl);
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { authorization: `Bearer ${access.token}`, 'x-request-id': access.requestId },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch {
        throw unavailable();
      }
      if (response.status === 404 || response.status === 403) return null;
      if (!response.ok) throw unavailable();
      const upload = uploadSchema.safeParse(await response.json().catch(() => null));
      if (!upload.success) throw unavailable();
      return upload.data;
    },
  };
}
