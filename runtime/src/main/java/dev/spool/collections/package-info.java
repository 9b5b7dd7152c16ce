/**
 * JSON-file backed collections: {@link dev.spool.collections.SyncedMap} and
 * {@link dev.spool.collections.SyncedList}.
 *
 * <h2>Memory-ordering conventions (once for the package)</h2>
 * A collection object holds no data of its own: only the file's real path and the key path of the
 * value it views inside the file's tree. Every operation runs as one call into
 * {@link dev.spool.buffer.SharedBuffer#liveRead} or {@link dev.spool.buffer.SharedBuffer#liveWrite},
 * under the monitor of the file's buffer entry; that monitor orders every access to the shared
 * tree. Values are converted to fresh plain JSON objects before the monitor is taken, and values
 * handed out are either immutable scalars or new views, so no tree object escapes the monitor.
 */
package dev.spool.collections;
