// Types of bin/build.js (plain JavaScript, run by Node before the sources can be).
export declare const BUNDLE: string;
export declare const BUILD_OPTIONS: import('esbuild').BuildOptions & { metafile: true; write: false };
export declare function build(): Promise<void>;
export declare function isFresh(): boolean;
export declare function ensureBuilt(): Promise<void>;
