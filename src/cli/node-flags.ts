/**
 * V8's heap for the server (docs/operations.md#memory). The young generation: its default here
 * is 32 MB per semi-space (scaled to the machine's memory), and it stays that large once a burst
 * has grown it: 8 MB keeps the server's memory ~30–100 MB smaller idle and ~140 MB smaller under
 * load, at the same throughput. The old generation: a large answer's text from the database lands
 * there (large objects are never young), and V8 lets it grow to several times what is alive before
 * collecting it; growing by half at most keeps the peak under uncached site trees at 275–360 MB
 * instead of 390–500, at about the same throughput.
 */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=50'];
const APPLIED = 'DOCS_GATEWAY_NODE_FLAGS';

/**
 * `serve` runs the process again, in place (same pid, same signals), with SERVER_NODE_FLAGS,
 * which V8 reads only as it starts. Not when the operator chose a young generation or a heap
 * growth (NODE_OPTIONS, node's own flags), nor where Node cannot (process.execve: Node 22.15+, not on Windows).
 */
export function restartWithServerFlags(): void {
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (process.env[APPLIED] || /--((max|min)-semi-space-size|heap-growing-percent)/.test(chosen) || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...SERVER_NODE_FLAGS, ...process.argv.slice(1)], {
    ...process.env,
    [APPLIED]: SERVER_NODE_FLAGS.join(' '),
  });
}
