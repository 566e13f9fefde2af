export {
  actionSourceOf,
  auditedBy,
  recordAction,
  SCHEDULED,
  type ActionSource,
  type AuditedBy,
} from './audit.js';
