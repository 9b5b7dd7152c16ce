/**
 * Benchmarks of the shared buffer against the anchors (signac's table shape): write-through,
 * a serialized-bytes buffer, the shared-object buffer and a plain {@code HashMap} floor; and a
 * flush of N dirty files against a tight loop of encode + write + rename.
 */
package dev.spool.bench.buffer;
