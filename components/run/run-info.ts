/** The run header's info entries in words: pure, shared with the offline report (lib/metrics/run-info.ts). */
export * from "@/lib/metrics/run-info";
