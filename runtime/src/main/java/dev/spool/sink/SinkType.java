package dev.spool.sink;

/** How a sink writes its file (`spool.sink.type`). Both produce byte-identical files after close. */
public enum SinkType {
    /** {@link java.nio.channels.FileChannel} writes of whole buffers, no flush per record. */
    FILE,
    /** Copies into memory-mapped windows that advance through the file; the file is cut to its
     *  real length at close, and a crash leaves zero padding the reader treats as end of data. */
    MMAP
}
