/** mulberry32: a tiny seeded PRNG, so every run of a generator writes the same bytes. */
export declare function prng(seed: number): () => number;
