export {
  startInfrastructure,
  serviceSchemas,
  type Infrastructure,
  type InfrastructureOptions,
  type Prune,
  type SharedSchema,
} from './infrastructure.js';
export { createServiceApp, type ServiceAppOptions } from './app.js';
export { serviceEnv } from './env.js';
export { startRepeatingPass, type RepeatingPass } from './repeating-pass.js';
