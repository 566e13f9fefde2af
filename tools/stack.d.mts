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
/** Node/V8 arguments a service's processes start with, beyond the ones every process gets. */
export const SERVICE_NODE_ARGS: Record<string, string[]>;
export function checkDependencies(
  env: Record<string, string | undefined>,
  options?: { ownNats?: boolean },
): Promise<string | null>;
/** One NATS user of libs/bus `randomBusUsers()`: a role, its user name and password. */
export interface BusLoginUser {
  role: string;
  user: string;
  password: string;
}
export function busLogin(
  users: BusLoginUser[],
  entry: { name: string; service?: string },
): { NATS_USER: string; NATS_PASSWORD: string };
export function startLocalNats(options: {
  port: number;
  storeDir: string;
  namespace: string;
  users: BusLoginUser[];
  readyTimeoutMs?: number;
}): Promise<{ url: string; stop(): Promise<void> }>;
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
  startUpRestarts?: number;
  output?: { write(line: string): unknown };
  logFile?: string;
  nodeArgs?: string[];
  busUsers?: BusLoginUser[];
}): Promise<{ stop(): Promise<void>; pids(): Record<string, number | null> }>;
export function prepareStack(
  env?: Record<string, string | undefined>,
  options?: { ownNats?: boolean },
): Promise<void>;
export function productionSecrets(): Record<
  'JWT_PRIVATE_KEYS' | 'DOWNLOAD_SIGNING_KEY' | 'PAYOUT_ENCRYPTION_KEYS' | 'VISITOR_ID_SECRET',
  string
>;
