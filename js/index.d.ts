// Type declarations of the ES module entry: the same as the CommonJS entry's (index.d.cts, the one
// copy), since both entries export the one module.
export * from './index.cjs';
