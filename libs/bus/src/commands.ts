import {
  commands,
  type CommandName,
  type CommandReply,
  type CommandRequest,
} from '@lockdrop/contracts';
import type { NatsConnection, Subscription as NatsSubscription } from '@nats-io/transport-node';
import { errorMessage, type Logger } from './logger.js';
import { commandSubject } from './naming.js';

/** The answering service could not be reached or did not do what was asked; nothing may be assumed. */
export class CommandFailedError extends Error {
  override name = 'CommandFailedError';
}

type Wire = { ok: true; reply: unknown } | { ok: false; error: string };

export async function requestCommand<C extends CommandName>(
  nc: NatsConnection,
  namespace: string,
  command: C,
  request: CommandRequest<C>,
  timeoutMs: number,
): Promise<CommandReply<C>> {
  const payload = JSON.stringify(commands[command].request.parse(request));
  let wire: Wire;
  try {
    const message = await nc.request(commandSubject(namespace, command), payload, {
      timeout: timeoutMs,
    });
    wire = message.json<Wire>();
  } catch (error) {
    throw new CommandFailedError(`${command}: no answer (${errorMessage(error)})`);
  }
  if (!wire.ok) throw new CommandFailedError(`${command}: ${wire.error}`);
  const reply = commands[command].reply.safeParse(wire.reply);
  if (!reply.success) throw new CommandFailedError(`${command}: unexpected answer`);
  return reply.data as CommandReply<C>;
}

/** Answers `command` in a queue group, so one replica handles each request. */
export function serveCommand<C extends CommandName>(
  nc: NatsConnection,
  namespace: string,
  command: C,
  handler: (request: CommandRequest<C>) => Promise<CommandReply<C>>,
  logger: Logger,
): NatsSubscription {
  const subject = commandSubject(namespace, command);
  return nc.subscribe(subject, {
    queue: command,
    callback: (error, message) => {
      if (error) return logger.error({ command, err: errorMessage(error) }, 'command subscription');
      const answer = (wire: Wire) => message.respond(JSON.stringify(wire));
      void (async () => {
        try {
          const request = commands[command].request.parse(message.json());
          answer({ ok: true, reply: await handler(request as CommandRequest<C>) });
        } catch (failure) {
          logger.error({ command, err: errorMessage(failure) }, 'command failed');
          answer({ ok: false, error: errorMessage(failure) });
        }
      })();
    },
  });
}
