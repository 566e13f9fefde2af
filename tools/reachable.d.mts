export function canConnect(url: string, timeoutMs?: number): Promise<boolean>;
