// The declarations of fix.mjs (plain JavaScript, loaded by the engine's thread without a TypeScript loader).
/** The patches to LevelDB 1.20's sources, in the order applied. */
export declare const PATCHES: string[];
/** The classic-level that dynalite's `level` loads. */
export declare function classicLevelDir(): string;
/** The patches' key: the patches, the package's version and the machine's kind. */
export declare function fixKey(packageDir?: string): string;
/** Where the patched binary lies and its mark. */
export declare function fixedBinary(packageDir?: string): { release: string; binary: string; mark: string };
/** Throws unless the binary classic-level loads carries the patches. */
export declare function assertFixedLevelDb(): void;
