import { loadConfig, startOrExit } from '@lockdrop/config';
import { runUntilSignalled } from '@lockdrop/http';
import { buildApp } from './app.js';
import { configSchema } from './config.js';

await startOrExit(async () => {
  const config = loadConfig(configSchema);
  const app = await buildApp(config);
  await runUntilSignalled(app, { port: config.PORT, host: config.HOST });
});
