/** Types of the seeded PRNG the generators share. */
export declare function prng(seed: number): () => number;
