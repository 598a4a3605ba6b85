export declare const BUILD_INPUTS: readonly string[];
export declare const STAMP_FILE: string;
export declare function sourcesHash(root: string, env?: Record<string, string | undefined>): string;
export declare function buildIsCurrent(root: string, distDir: string, hash: string): boolean;
export declare function stampBuild(root: string, distDir: string, hash: string): void;
