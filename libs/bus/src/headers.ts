/** NATS headers the bus sets; exported so tools reading the streams (and tests) use the same names. */
export const busHeaders = {
  correlationId: 'Correlation-Id',
  /** Why a message was dead-lettered: the parse error or the handler's last error message. */
  deadLetterReason: 'Dead-Letter-Reason',
  deadLetterSubject: 'Dead-Letter-Original-Subject',
  deadLetterConsumer: 'Dead-Letter-Consumer',
  deadLetterDeliveries: 'Dead-Letter-Deliveries',
} as const;
