// Types of bin/build.js (plain JavaScript, run by Node before the sources can be).
export declare const BUNDLE: string;
export declare const BUILD_OPTIONS: import('esbuild').BuildOptions & { metafile: true; write: false };
export declare function build(options?: { quiet?: boolean }): Promise<void>;
export declare function staleness(): string | undefined;
export declare function isFresh(): boolean;
export declare function ensureBuilt(): Promise<void>;
