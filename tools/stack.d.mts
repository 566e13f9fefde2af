export const root: string;
export interface StackEntry {
  name: string;
  port: number;
  env: Record<string, string>;
  /** The service this entry runs when its name is a replica's (`payments-b`); default `name`. */
  service?: string;
  /** Replaces the service's bundle (tests). */
  script?: string;
}
export function checkDependencies(env: Record<string, string | undefined>): Promise<string | null>;
export function buildStale(): void;
export function stackLayout(options?: {
  gatewayPort?: number;
  servicePortBase?: number;
}): StackEntry[];
export function startStack(options: {
  env: Record<string, string | undefined>;
  layout: StackEntry[];
  logLevel?: string;
  readyTimeoutMs?: number;
  maxCrashes?: number;
  crashWindowMs?: number;
  onGiveUp?: (name: string) => void;
  output?: { write(line: string): unknown };
  logFile?: string;
  nodeArgs?: string[];
}): Promise<{ stop(): Promise<void>; pids(): Record<string, number | null> }>;
export function prepareStack(env?: Record<string, string | undefined>): Promise<void>;
export function productionSecrets(): Record<
  'JWT_PRIVATE_KEYS' | 'DOWNLOAD_SIGNING_KEY' | 'PAYOUT_ENCRYPTION_KEYS' | 'VISITOR_ID_SECRET',
  string
>;
