export const root: string;
export interface StackEntry {
  name: string;
  port: number;
  env: Record<string, string>;
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
}): Promise<{ stop(): Promise<void> }>;
