package dev.spool.mbeans;

/**
 * {@code dev.spool:type=Buffer}: the shared write-behind buffer of JSON files.
 *
 * <p>Every read is a point-in-time value taken when the attribute is read; counters are
 * monotonic from the buffer's start. Writable attributes are validated (an invalid value throws
 * {@link IllegalArgumentException} and changes nothing) and take effect at once.
 */
@Description("Spool's shared write-behind buffer: files whose JSON writes are held in memory and written at flush")
public interface BufferMXBean {
    @Description("Whether new writes are buffered. false: every later write goes straight to disk (what is buffered stays until the next flush)")
    boolean isEnabled();

    void setEnabled(boolean enabled);

    @Description("Dirty files held before the background flush starts (at least 1; the writer goes on, the flusher writes)")
    int getCapacity();

    void setCapacity(int capacity);

    @Description("Memory bound: estimated dirty bytes held at most; the flush starts at half of it, and a write waits (bounded) above it")
    long getCapacityBytes();

    void setCapacityBytes(long capacityBytes);

    @Description("Milliseconds between timed flushes; 0 = no timed flush")
    long getFlushIntervalMillis();

    void setFlushIntervalMillis(long millis);

    @Description("Whether each flushed file and its folder are fsync'd")
    boolean isFsync();

    void setFsync(boolean fsync);

    @Description("Threads writing the files of one flush (1 to 64)")
    int getFlushThreads();

    void setFlushThreads(int threads);

    @Description("true when spool.buffer.others.check=flush (its older name: spool.buffer.exclusive=true), the default: see OthersCheck. Set at start")
    boolean isExclusive();

    @Description("spool.buffer.others.check: when changes made to buffered files by other processes are looked for. flush (default): at the flush only, so a buffered write or read makes no lstat; such a change is kept and the buffered content goes to a .spool-conflict file, but reads may serve buffered content after it. call: at each buffered write and read (one lstat each), so a later write re-bases on it. Set at start")
    String getOthersCheck();

    @Description("spool.buffer.create=flush: a file that does not exist yet is held like a rewrite and created by the flusher soon after the call (the name stays free until then), instead of at the call. Set at start")
    boolean isCreateAtFlush();

    @Description("Writes that waited for the flush because the buffer was at its memory bound (CapacityBytes) since start")
    long getBackpressureWaits();

    @Description("Total milliseconds writes waited at the memory bound since start")
    long getBackpressureMillis();

    @Description("Files currently held by the buffer (clean and dirty)")
    int getEntries();

    @Description("Files with changes not yet on disk")
    int getDirtyEntries();

    @Description("Estimated bytes currently held")
    long getEstimatedBytes();

    @Description("Flushes completed since start")
    long getFlushes();

    @Description("Files written by flushes since start")
    long getFilesWritten();

    @Description("Writes absorbed in memory (not written to disk at the time of the call) since start")
    long getWritesAbsorbed();

    @Description("Reads served from memory since start")
    long getReadsServed();

    @Description("Files found changed on disk by someone else at flush; their content went to a .spool-conflict file")
    long getConflicts();

    @Description("The host's own file operations on buffered files (reads and writes by other paths, deletions, moves, copies) whose preparation failed; each then ran on what was on disk, as without Spool")
    long getHostFileOpFailures();

    @Description("Temp files (.<name>.spool-tmp-*) that crashed Spool processes had left, removed since start: each folder is swept once, before its first flush in this process, and only files whose writer is provably gone")
    long getStaleTempFilesRemoved();

    @Description("Duration of the last flush in milliseconds")
    long getLastFlushMillis();

    @Description("The last flush error (file and cause), or empty")
    String getLastError();

    @Description("Jackson writes encoded on the caller's thread at the call since start, by reason: the capture (encoded at the flush) was not proven to give the host's bytes for that configuration, serializer or value (e.g. pretty-printer, character-escapes, base64-variant, serializer-changed-generator, serializer-failed, large)")
    java.util.Map<String, Long> getEncodedAtCall();

    @Description("Writes every dirty file now; returns the number of files written")
    int flush();
}
