export {
  startInfrastructure,
  type Infrastructure,
  type InfrastructureOptions,
  type Prune,
} from './infrastructure.js';
export { createServiceApp, type ServiceAppOptions } from './app.js';
export { serviceEnv } from './env.js';
