export {
  startInfrastructure,
  type Infrastructure,
  type InfrastructureOptions,
} from './infrastructure.js';
export { createServiceApp, type ServiceAppOptions } from './app.js';
export { serviceEnv } from './env.js';
