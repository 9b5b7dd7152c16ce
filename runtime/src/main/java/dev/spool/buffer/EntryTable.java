package dev.spool.buffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The buffer's entries by real path: lookup, creation, loading, eviction and the per-entry part
 * of the metrics. Lookups are lock-free ({@link ConcurrentHashMap}); everything that reads or
 * changes an entry's fields runs under that entry's monitor (methods say "caller holds").
 * Guarantees: at most one entry per path in the map; an entry leaves the map only with its
 * {@code removed} flag set under its monitor, so a holder of a stale reference notices and looks up
 * again.
 * <pre>{@code
 * Entry e = table.entryFor(path);
 * synchronized (e) {
 *     if (e.removed) { ...look up again... }
 *     Object tree = table.ensureLive(e, JsonKind.MAP);
 * }
 * }</pre>
 */
final class EntryTable {
    private final ConcurrentHashMap<Path, Entry> entries = new ConcurrentHashMap<>();
    /** Folder (parent of an entry's path) -> its entries; each map changed only inside this map's compute for its key. */
    private final ConcurrentHashMap<Path, Map<Path, Entry>> byFolder = new ConcurrentHashMap<>();
    /** Proper ancestors of the folders in {@link #byFolder} (kept once seen: a stale one only costs a scan of the folders). */
    private final Set<Path> ancestors = ConcurrentHashMap.newKeySet();
    private final Counters counters;
    private final AtomicInteger scopeDepth;
    private final FolderSweeps sweeps;

    EntryTable(Counters counters, AtomicInteger scopeDepth, FolderSweeps sweeps) {
        this.counters = counters;
        this.scopeDepth = scopeDepth;
        this.sweeps = sweeps;
    }

    Entry get(Path p) {
        return entries.get(p);
    }

    Collection<Entry> entries() {
        return entries.values();
    }

    /** Entries in the table now, stamps included (momentary). */
    long size() {
        return entries.mappingCount();
    }

    Entry entryFor(Path p) {
        Entry e = entries.get(p);
        return e != null ? e : entries.computeIfAbsent(p, this::created);
    }

    /** Whether the table holds no entry at all (stamps included): the host's file operations then need no lookup. */
    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** Inside {@code entries.computeIfAbsent}: a new entry, indexed by its folder. */
    private Entry created(Path p) {
        Entry e = new Entry(p);
        Path folder = p.getParent();
        if (folder != null) {
            byFolder.compute(folder, (f, inFolder) -> {
                if (inFolder == null) {
                    inFolder = new HashMap<>();
                    sweeps.note(f); // its stale temp files go before the next flush writes

                    for (Path a = f.getParent(); a != null && ancestors.add(a); a = a.getParent()) { }
                }
                inFolder.put(p, e);
                return inFolder;
            });
        }
        return e;
    }

    /**
     * The entries directly in folder {@code dir} (a moment's view), for a host's listing or
     * deletion of that folder: one map lookup, no scan.
     */
    List<Entry> in(Path dir) {
        List<Entry> out = new ArrayList<>();
        byFolder.computeIfPresent(dir, (k, inFolder) -> {
            out.addAll(inFolder.values());
            return inFolder;
        });
        return out;
    }

    /**
     * The entries in folder {@code dir} or anywhere beneath it (a moment's view), for a host's move
     * of that folder. No scan when {@code dir} holds none (two map lookups); else a scan of the
     * folders holding entries, never of all entries.
     */
    List<Entry> under(Path dir) {
        boolean folder = byFolder.containsKey(dir);
        if (!folder && !ancestors.contains(dir)) return List.of();
        List<Entry> out = new ArrayList<>();
        for (Path f : byFolder.keySet()) {
            if (f.startsWith(dir)) {
                byFolder.computeIfPresent(f, (k, inFolder) -> {
                    out.addAll(inFolder.values());
                    return inFolder;
                });
            }
        }
        return out;
    }

    /** Caller holds {@code e}'s monitor. Loads or decodes the tree; a bad file removes a clean entry. */
    Object ensureLive(Entry e, JsonKind kind) {
        if (e.root != null) return kind.check(e.path, e.root);
        if (e.snapshot != null) {
            byte[] content;
            try {
                content = e.snapshot.encode();
            } catch (IOException io) {
                throw new UncheckedIOException("cannot encode the buffered content of " + e.path, io);
            }
            e.root = kind.check(e.path, Json.decode(e.path, content));
            e.snapshot = null;
            return e.root;
        }
        try {
            FileStamp.Loaded l = FileStamp.load(e.path);
            Object tree = l.content() == null ? kind.empty() : kind.check(e.path, Json.decode(e.path, l.content()));
            e.baseline = l.stamp();
            e.loaded = true;
            e.estimate = l.content() == null ? 2 : l.content().length;
            e.root = tree;
            return tree;
        } catch (IOException io) {
            dropIfClean(e);
            throw new UncheckedIOException("cannot read " + e.path, io);
        } catch (RuntimeException bad) {
            dropIfClean(e);
            throw bad;
        }
    }

    void dropIfClean(Entry e) {
        if (!e.dirty && e.failure == null) remove(e);
    }

    /**
     * Caller holds {@code e}'s monitor. A clean entry leaves the buffer when nothing needs it in
     * memory: a snapshot (disk has the same bytes) after a full flush, or any entry when no scope
     * is open.
     */
    void evictIfIdle(Entry e, boolean snapshotsToo) {
        if (e.removed || e.dirty || e.failure != null) return;
        if (scopeDepth.get() == 0 || !e.loaded || (snapshotsToo && e.snapshot != null)) remove(e);
    }

    /**
     * Caller holds {@code e}'s monitor; at each flush pass, after the entry was written (or found
     * clean). A clean snapshot keeps only its stamp: its content is on disk, and the next put of
     * the file then costs one {@code lstat} instead of a read of the whole file and the refusal
     * checks. A stamp-only entry not put again during a whole pass leaves unless
     * {@code keepIdleStamps} (the table is small against the memory bound:
     * {@link CapacityGate#roomForIdleStamps}), so without room stamps are held for at most two
     * flush intervals (about 350 bytes each). Everything else as {@link #evictIfIdle}.
     */
    void afterPass(Entry e, boolean keepIdleStamps) {
        if (e.removed || e.dirty || e.failure != null) return;
        boolean stampOnly = e.root == null && e.snapshot == null;
        if (e.loaded && e.baseline.exists() && (stampOnly || e.snapshot != null)) {
            if (stampOnly && !e.touched && !keepIdleStamps) {
                remove(e);
            } else {
                e.snapshot = null;
                e.touched = false;
            }
            return;
        }
        evictIfIdle(e, true);
    }

    /** Whether {@code e} (monitor held) holds no content, only the stamp of its file. */
    static boolean stampOnly(Entry e) {
        return e.root == null && e.snapshot == null && !e.dirty && e.loaded;
    }

    /**
     * Caller holds {@code e}'s monitor; {@code e} is clean (nothing unwritten). Its content is
     * dropped with it: a {@link LiveSlot} may still point at a removed entry until its next call,
     * and must not keep the file's tree alive meanwhile.
     */
    void remove(Entry e) {
        e.removed = true;
        e.root = null;
        e.snapshot = null;
        entries.remove(e.path, e);
        Path folder = e.path.getParent();
        if (folder != null) {
            byFolder.computeIfPresent(folder, (f, inFolder) -> {
                inFolder.remove(e.path, e);
                return inFolder.isEmpty() ? null : inFolder;
            });
        }
        counters.readsServed.add(e.reads);
        counters.writesAbsorbed.add(e.writes);
    }

    BufferMetrics metrics() {
        long reads = 0;
        long writes = 0;
        int n = 0;
        for (Entry e : entries.values()) {
            synchronized (e) {
                if (e.removed) continue;
                reads += e.reads;
                writes += e.writes;
                if (!stampOnly(e)) n++; // a stamp alone buffers nothing
            }
        }
        return counters.snapshot(n, reads, writes);
    }
}
