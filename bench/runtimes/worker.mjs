// One runtime's Node process (bench/run.mjs forks it, the runtime's name as the argument): the
// controller's messages over the IPC channel, answered by serve.mjs.
import { serveRuntime } from './serve.mjs';

let runtime;
process.on('message', async (msg) => {
  try {
    if (msg.cmd === 'exit') {
      await runtime?.handle({ cmd: 'teardown' });
      process.send({ id: msg.id, reply: null }, () => process.exit(0));
      return;
    }
    const reply = await runtime.handle(msg);
    process.send({ id: msg.id, reply: reply ?? null });
  } catch (error) {
    process.send({ id: msg.id, error: String(error?.stack ?? error) });
  }
});

try {
  runtime = await serveRuntime(process.argv[2]);
  process.send({ ready: true, info: runtime.info });
} catch (error) {
  process.send({ ready: false, error: String(error?.stack ?? error) });
}
