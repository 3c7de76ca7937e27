// Preloaded into docs-gateway processes under test (`node --expose-gc --import …`):
// collects garbage all along and once more as the process exits, so that a
// native handle left to the collector instead of being closed (a database
// connection, say) is finalized while the process runs and while it shuts down.
if (typeof globalThis.gc !== 'function') throw new Error('force-gc.mjs needs node --expose-gc');
const collect = () => globalThis.gc();
setInterval(collect, 25).unref();
process.on('beforeExit', collect);
process.on('exit', collect);
