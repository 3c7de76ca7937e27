// Promise.withResolvers (Node 22) for peers that need it, so that every system
// under test runs on the same Node version.
Promise.withResolvers ??= function withResolvers() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};
